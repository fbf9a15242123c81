package io.stockguard.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * A real headless Chromium driven by Selenium, as Debian packages it ({@code apt-get install
 * chromium chromium-driver}; {@code ./stockguard test} installs both when missing and exports
 * {@code CHROME_BINARY} and {@code CHROMEDRIVER}). Counts the clicks a person makes and saves a
 * screenshot of each page it is asked to.
 */
public final class Browser implements AutoCloseable {

    public static final Dimension DESKTOP = new Dimension(1280, 800);
    public static final Dimension PHONE = new Dimension(390, 844);
    public static final Path SCREENSHOTS = Path.of("target", "screenshots");

    private final ChromeDriver driver;
    private final String baseUrl;
    private final Path profile;
    private int clicks;

    public Browser(String baseUrl) {
        this.baseUrl = baseUrl;
        try {
            this.profile = Files.createTempDirectory("stockguard-chromium-");
            Files.createDirectories(SCREENSHOTS);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        ChromeOptions options = new ChromeOptions();
        options.setBinary(executable("CHROME_BINARY", "/usr/bin/chromium", "/usr/bin/chromium-browser",
                "/usr/bin/google-chrome"));
        options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run",
                "--user-data-dir=" + profile, "--lang=en-US");
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(Path.of(executable("CHROMEDRIVER", "/usr/bin/chromedriver")).toFile())
                .usingAnyFreePort().build();
        this.driver = new ChromeDriver(service, options);
        driver.manage().timeouts().pageLoadTimeout(Duration.ofSeconds(30));
        size(DESKTOP);
    }

    private static String executable(String environment, String... candidates) {
        String configured = System.getenv(environment);
        if (configured != null && Files.isExecutable(Path.of(configured))) {
            return configured;
        }
        for (String candidate : candidates) {
            if (Files.isExecutable(Path.of(candidate))) {
                return candidate;
            }
        }
        throw new IllegalStateException("the console's browser tests need Chromium and its driver: apt-get install "
                + "chromium chromium-driver (./stockguard test does when it may), or set " + environment
                + "; looked for " + String.join(", ", candidates));
    }

    public void size(Dimension dimension) {
        driver.manage().window().setSize(dimension);
    }

    public void open(String path) {
        driver.get(baseUrl + path);
    }

    public void logIn(ConsolePeople.Login login) {
        open("/console/login");
        driver.findElement(By.id("username")).sendKeys(login.name());
        driver.findElement(By.id("password")).sendKeys(login.password());
        click(driver.findElement(By.cssSelector("button[type=submit]")));
        assertThat(driver.getCurrentUrl()).as("logged in").endsWith("/console");
    }

    /**
     * Clicks as a person does, counts it, and waits (10 s at most) for the page it leads to: every
     * action in the console is a link or a form that loads a new page.
     */
    public void click(WebElement element) {
        clicks++;
        WebElement page = driver.findElement(By.tagName("html"));
        element.click();
        new WebDriverWait(driver, Duration.ofSeconds(10)).until(d -> replaced(page));
        new WebDriverWait(driver, Duration.ofSeconds(10)).until(d -> "complete".equals(
                ((JavascriptExecutor) d).executeScript("return document.readyState")));
    }

    /**
     * Whether the old page is gone. Chromium says so with a stale-element error, or, caught in the
     * middle of the navigation, with "does not belong to the document" (which Selenium's own
     * staleness check does not recognise and throws).
     */
    private static boolean replaced(WebElement page) {
        try {
            page.isEnabled();
            return false;
        } catch (org.openqa.selenium.StaleElementReferenceException e) {
            return true;
        } catch (org.openqa.selenium.WebDriverException e) {
            if (String.valueOf(e.getMessage()).contains("does not belong to the document")) {
                return true;
            }
            throw e;
        }
    }

    public int clicks() {
        return clicks;
    }

    public void resetClicks() {
        clicks = 0;
    }

    public WebElement find(String css) {
        return driver.findElement(By.cssSelector(css));
    }

    public List<WebElement> findAll(String css) {
        return driver.findElements(By.cssSelector(css));
    }

    public String text() {
        return driver.findElement(By.tagName("body")).getText();
    }

    public String url() {
        return driver.getCurrentUrl();
    }

    public String cookie(String name) {
        return driver.manage().getCookieNamed(name).getValue();
    }

    public Object script(String script, Object... arguments) {
        return ((JavascriptExecutor) driver).executeScript(script, arguments);
    }

    /** Runs a script that calls its last argument when done (a fetch, say) and returns what it was given. */
    public Object asyncScript(String script, Object... arguments) {
        return ((JavascriptExecutor) driver).executeAsyncScript(script, arguments);
    }

    public Path screenshot(String name) {
        Path file = SCREENSHOTS.resolve(name + ".png");
        try {
            Files.write(file, driver.getScreenshotAs(OutputType.BYTES));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return file;
    }

    /**
     * Accessibility basics of the page as shown now: every control a person can act on has an
     * accessible name (a label, its text or aria-label), and the page does not scroll sideways
     * (wide tables scroll inside their own region).
     */
    public void assertUsable(String page) {
        List<String> unnamed = new ArrayList<>();
        for (WebElement control : findAll("a.button, button, input:not([type=hidden]), select, textarea")) {
            String name = control.getAccessibleName();
            if (name == null || name.isBlank()) {
                unnamed.add(control.getTagName() + " " + control.getDomAttribute("id") + " "
                        + control.getDomAttribute("name"));
            }
        }
        assertThat(unnamed).as("controls without an accessible name on %s", page).isEmpty();
        Number pageWidth = (Number) script("return document.documentElement.scrollWidth;");
        Number viewWidth = (Number) script("return document.documentElement.clientWidth;");
        assertThat(pageWidth.intValue()).as("%s scrolls sideways", page).isLessThanOrEqualTo(viewWidth.intValue());
    }

    @Override
    public void close() {
        driver.quit();
        try (var files = Files.walk(profile)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException e) {
            // A leftover temporary profile is harmless.
        }
    }
}
