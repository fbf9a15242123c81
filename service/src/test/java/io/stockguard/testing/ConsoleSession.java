package io.stockguard.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.CookieManager;
import java.net.HttpCookie;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * A person's browser session as plain HTTP: a cookie jar, the CSRF token of the last page read,
 * and no automatic redirects, so tests see exactly what the service answers.
 */
public final class ConsoleSession {

    private static final Pattern HIDDEN_CSRF = Pattern.compile("name=\"_csrf\" value=\"([^\"]+)\"");
    private static final Pattern META_CSRF = Pattern.compile("<meta name=\"_csrf\" content=\"([^\"]+)\"");

    private final String baseUrl;
    private final CookieManager cookies;
    private final HttpClient http;

    public ConsoleSession(String baseUrl) {
        this(baseUrl, new CookieManager());
    }

    private ConsoleSession(String baseUrl, CookieManager cookies) {
        this.baseUrl = baseUrl;
        this.cookies = cookies;
        this.http = HttpClient.newBuilder().cookieHandler(cookies)
                .followRedirects(HttpClient.Redirect.NEVER).connectTimeout(Duration.ofSeconds(5)).build();
    }

    /**
     * The same browser sent to another instance, as a load balancer without sticky sessions would:
     * both share one cookie jar, so each request carries the cookies either instance set.
     */
    public ConsoleSession at(String otherBaseUrl) {
        return new ConsoleSession(otherBaseUrl, cookies);
    }

    /**
     * Another browser holding a copy of one cookie (a second window, or someone who copied it):
     * what the service does with that cookie alone, whatever this browser's jar does with it later.
     */
    public static ConsoleSession holding(String baseUrl, String name, String value) {
        ConsoleSession session = new ConsoleSession(baseUrl);
        HttpCookie cookie = new HttpCookie(name, value);
        cookie.setPath("/");
        cookie.setVersion(0);
        session.cookies.getCookieStore().add(URI.create(baseUrl), cookie);
        return session;
    }

    /** The value of the cookie {@code name} this browser holds, or null. */
    public String cookie(String name) {
        return cookies.getCookieStore().getCookies().stream().filter(c -> c.getName().equals(name))
                .map(HttpCookie::getValue).findFirst().orElse(null);
    }

    /** A response: status, where it redirects to (or null) and the body. */
    public record Page(int status, String location, String body) {
    }

    /** Logs in through the form and returns where the service sent the browser. */
    public Page login(String name, String password) {
        String token = csrfToken("/console/login");
        return postForm("/console/login", Map.of("username", name, "password", password, "_csrf", token));
    }

    public Page login(ConsolePeople.Login login) {
        return login(login.name(), login.password());
    }

    public Page get(String path) {
        return send(HttpRequest.newBuilder(URI.create(baseUrl + path)).GET());
    }

    /** The CSRF token that the page at {@code path} carries (its form's hidden field or its meta tag). */
    public String csrfToken(String path) {
        String body = get(path).body();
        Matcher hidden = HIDDEN_CSRF.matcher(body);
        if (hidden.find()) {
            return hidden.group(1);
        }
        Matcher meta = META_CSRF.matcher(body);
        if (meta.find()) {
            return meta.group(1);
        }
        throw new IllegalStateException("no CSRF token on " + path);
    }

    public Page postForm(String path, Map<String, String> fields) {
        String form = fields.entrySet().stream().map(e -> encode(e.getKey()) + "=" + encode(e.getValue()))
                .collect(Collectors.joining("&"));
        return send(HttpRequest.newBuilder(URI.create(baseUrl + path))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(form)));
    }

    /** A JSON request carried by this session's cookie; {@code csrf} null sends no token. */
    public Page json(String method, String path, String body, String csrf) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(baseUrl + path))
                .header("Content-Type", "application/json")
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body));
        if (csrf != null) {
            request.header("X-CSRF-TOKEN", csrf);
        }
        return send(request);
    }

    public static Map<String, String> fields(String... keysAndValues) {
        Map<String, String> map = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            map.put(keysAndValues[i], keysAndValues[i + 1]);
        }
        return map;
    }

    private Page send(HttpRequest.Builder request) {
        try {
            HttpResponse<String> response = http.send(request.timeout(Duration.ofSeconds(30)).build(),
                    HttpResponse.BodyHandlers.ofString());
            return new Page(response.statusCode(), response.headers().firstValue("Location").orElse(null),
                    response.body());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    private static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }
}
