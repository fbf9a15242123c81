package io.stockguard.platform.web;

import io.stockguard.platform.ProblemCode;
import io.stockguard.platform.ProblemWriter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;
import org.springframework.util.unit.DataSize;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Refuses request bodies above a fixed size before anything parses them. The largest legitimate
 * body (an order with the maximum number of lines) is a few kilobytes, so 64 KiB leaves room
 * without letting one caller make the service parse megabytes. A declared length is checked up
 * front; a chunked body is cut off while it is read. Runs right after the {@link TraceFilter}, so a
 * refused body's problem still names the request's trace id.
 *
 * <p>One endpoint takes files: a catalogue import. It never parses its body in memory (it copies it
 * to a file under its own limit, {@code stockguard.catalogue.import-size-max}, then reads it line by
 * line), so it is the one exception.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE + 3)
class RequestSizeFilter extends OncePerRequestFilter {

    static final DataSize BODY_SIZE_MAX = DataSize.ofKilobytes(64);
    /** The catalogue import: POST, the body spooled to disk under the import's own limit. */
    public static final String IMPORT_PATH = "/api/v1/admin/skus:import";

    private final ProblemWriter problems;

    RequestSizeFilter(ProblemWriter problems) {
        this.problems = problems;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        if ("POST".equals(request.getMethod()) && (request.getContextPath() + IMPORT_PATH).equals(request.getRequestURI())) {
            chain.doFilter(request, response);
            return;
        }
        if (request.getContentLengthLong() > BODY_SIZE_MAX.toBytes()) {
            problems.write(request, response, ProblemCode.PAYLOAD_TOO_LARGE, detail());
            return;
        }
        chain.doFilter(new LimitedRequest(request), response);
    }

    static String detail() {
        return "request bodies are limited to " + BODY_SIZE_MAX.toKilobytes() + " KiB";
    }

    /** Thrown while reading a body that grew past the limit; the problem handler answers 413. */
    static final class BodyTooLargeException extends IOException {
        BodyTooLargeException() {
            super(detail());
        }
    }

    private static final class LimitedRequest extends HttpServletRequestWrapper {

        private ServletInputStream limited;

        LimitedRequest(HttpServletRequest request) {
            super(request);
        }

        @Override
        public ServletInputStream getInputStream() throws IOException {
            if (limited == null) {
                limited = new LimitedInputStream(super.getInputStream());
            }
            return limited;
        }
    }

    private static final class LimitedInputStream extends ServletInputStream {

        private final ServletInputStream delegate;
        private long read;

        LimitedInputStream(ServletInputStream delegate) {
            this.delegate = delegate;
        }

        @Override
        public int read() throws IOException {
            int b = delegate.read();
            if (b >= 0) {
                count(1);
            }
            return b;
        }

        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
            int n = delegate.read(buffer, offset, length);
            if (n > 0) {
                count(n);
            }
            return n;
        }

        private void count(int n) throws IOException {
            read += n;
            if (read > BODY_SIZE_MAX.toBytes()) {
                throw new BodyTooLargeException();
            }
        }

        @Override
        public boolean isFinished() {
            return delegate.isFinished();
        }

        @Override
        public boolean isReady() {
            return delegate.isReady();
        }

        @Override
        public void setReadListener(ReadListener listener) {
            delegate.setReadListener(listener);
        }
    }
}
