package io.stockguard.testkit;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A limit on what the tests of one JVM write to standard output and error: past it, the rest is
 * dropped and the test that is running (or the next to end) fails, naming the limit. A service
 * started inside a test whose client logs in a loop (a Kafka admin client rebootstrapping against
 * a broker that is gone once filled 75 GB of a build's deferred output) then fails its test
 * instead of filling the disk. Registered for every test class through JUnit's extension
 * auto-detection ({@code junit-platform.properties} of each module).
 *
 * <p>The limit is {@value #LIMIT_MEGABYTES_DEFAULT} MB per test JVM, or what the system property
 * {@value #LIMIT_PROPERTY} says (in MB).
 */
public final class OutputLimit implements BeforeAllCallback, AfterEachCallback, AfterAllCallback {

    public static final String LIMIT_PROPERTY = "stockguard.test.output-limit-mb";
    public static final long LIMIT_MEGABYTES_DEFAULT = 512;

    /** The one budget of this JVM's tests. */
    private static final Budget BUDGET = new Budget(Long.getLong(LIMIT_PROPERTY, LIMIT_MEGABYTES_DEFAULT) * 1024 * 1024);
    private static final AtomicBoolean INSTALLED = new AtomicBoolean();
    private static final AtomicBoolean REPORTED = new AtomicBoolean();

    /** Bytes allowed, bytes written (dropped ones included), and whether the limit was passed. */
    static final class Budget {
        private final long limitBytes;
        private final AtomicLong written = new AtomicLong();
        private final AtomicBoolean exceeded = new AtomicBoolean();

        Budget(long limitBytes) {
            this.limitBytes = limitBytes;
        }

        boolean exceeded() {
            return exceeded.get();
        }

        long written() {
            return written.get();
        }
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        install();
    }

    @Override
    public void afterEach(ExtensionContext context) {
        failIfExceeded();
    }

    @Override
    public void afterAll(ExtensionContext context) {
        failIfExceeded();
    }

    /** Puts the limit in front of System.out and System.err, once per JVM. */
    public static void install() {
        if (!INSTALLED.compareAndSet(false, true)) {
            return;
        }
        System.setOut(capped(System.out, BUDGET));
        System.setErr(capped(System.err, BUDGET));
    }

    private static void failIfExceeded() {
        if (BUDGET.exceeded() && REPORTED.compareAndSet(false, true)) {
            throw new AssertionError("the tests of this JVM wrote more than " + BUDGET.limitBytes / (1024 * 1024)
                    + " MB to standard output and error (" + BUDGET.written() / (1024 * 1024) + " MB so far): a "
                    + "runaway log; the rest was dropped (limit: -D" + LIMIT_PROPERTY + ")");
        }
    }

    /** {@code target} behind {@code budget}: what passes the limit is dropped, with one notice. */
    static PrintStream capped(PrintStream target, Budget budget) {
        return new PrintStream(new OutputStream() {
            @Override
            public void write(int b) {
                write(new byte[] {(byte) b}, 0, 1);
            }

            @Override
            public void write(byte[] bytes, int offset, int length) {
                long total = budget.written.addAndGet(length);
                if (total <= budget.limitBytes) {
                    target.write(bytes, offset, length);
                    return;
                }
                if (budget.exceeded.compareAndSet(false, true)) {
                    target.println();
                    target.println("[OutputLimit] more than " + budget.limitBytes + " bytes written by this JVM's "
                            + "tests: the rest is dropped, and the running test fails");
                    target.flush();
                }
            }

            @Override
            public void flush() {
                target.flush();
            }
        }, true, StandardCharsets.UTF_8);
    }
}
