package io.stockguard.bench.stockguard;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;

/**
 * A bare HTTP/1.1 client, so that the bench's HTTP figures are the service's and not a client
 * library's: one keep-alive socket, each request written in one write from a buffer it reuses, each
 * answer parsed by hand (status line, {@code Content-Length} or chunks, {@code Connection: close})
 * into a body buffer it reuses. A request allocates nothing but what the socket itself does.
 *
 * <p>Only what the bench sends: ASCII paths and bodies, no {@code Expect}, no compression. When the
 * server closes a kept-alive connection before answering (Tomcat ends one after 100 requests, or
 * when idle), the request is sent once more on a new one: StockGuard's reservations are idempotent
 * by order id, so a request the server did see is answered as a replay, not sold twice.
 *
 * <p>Not thread-safe: one per session, used by one thread.
 */
final class LeanHttp implements AutoCloseable {

    private static final int CONNECT_TIMEOUT_MILLIS = 5_000;
    private static final int READ_TIMEOUT_MILLIS = 30_000;
    /** Holds the longest status or header line accepted: Tomcat's own limit for a whole header is 8 KiB. */
    private static final int INPUT_BUFFER = 16 * 1024;
    /** Largest request or body handled: the service's answers to the bench are a few hundred bytes. */
    private static final int MESSAGE_MAX = 1024 * 1024;
    private static final byte[] CONTENT_LENGTH = ascii("content-length:");
    private static final byte[] TRANSFER_ENCODING = ascii("transfer-encoding:");
    private static final byte[] CONNECTION = ascii("connection:");
    private static final byte[] CHUNKED = ascii("chunked");
    private static final byte[] CLOSE = ascii("close");

    private final InetSocketAddress address;
    private final int readTimeoutMillis;
    /** Host and authorization, the same on every request. */
    private final byte[] commonHeaders;
    private byte[] request = new byte[1024];
    private int requestLength;
    private final byte[] input = new byte[INPUT_BUFFER];
    private int inputStart;
    private int inputEnd;
    private byte[] body = new byte[1024];
    private int bodyLength;
    private final CharSequence bodyText = new BodyText();
    private int status;
    private boolean answerStarted;
    private Socket socket;
    private InputStream in;
    private OutputStream out;
    private long connections;

    /** A client of {@code 127.0.0.1:port} sending {@code Authorization: Bearer apiKey}; connects on first use. */
    LeanHttp(int port, String apiKey) {
        this(port, apiKey, READ_TIMEOUT_MILLIS);
    }

    /** @param readTimeoutMillis longest wait for the next bytes of an answer */
    LeanHttp(int port, String apiKey, int readTimeoutMillis) {
        this.address = new InetSocketAddress(InetAddress.getLoopbackAddress(), port);
        this.readTimeoutMillis = readTimeoutMillis;
        this.commonHeaders = ascii("Host: " + address.getAddress().getHostAddress() + ":" + port
                + "\r\nAuthorization: Bearer " + apiKey + "\r\n");
    }

    /** POSTs a JSON body; returns the status, the body is {@link #body()} until the next request. */
    int post(CharSequence path, CharSequence json) throws IOException {
        requestLength = 0;
        append("POST ");
        appendPath(path);
        append(" HTTP/1.1\r\n");
        append(commonHeaders);
        append("Content-Type: application/json\r\nContent-Length: ");
        appendDecimal(json.length());
        append("\r\n\r\n");
        append(json);
        return exchange();
    }

    /** GETs a path; returns the status, the body is {@link #body()} until the next request. */
    int get(CharSequence path) throws IOException {
        requestLength = 0;
        append("GET ");
        appendPath(path);
        append(" HTTP/1.1\r\n");
        append(commonHeaders);
        append("\r\n");
        return exchange();
    }

    /** The last answer's body, as Latin-1 characters over the buffer (the JSON the bench reads is ASCII). */
    CharSequence body() {
        return bodyText;
    }

    /** Connections opened so far: one per session, plus one each time the server ended one. */
    long connections() {
        return connections;
    }

    private int exchange() throws IOException {
        boolean reused = socket != null;
        if (!reused) {
            connect();
        }
        try {
            return send();
        } catch (SocketTimeoutException e) {
            disconnect();
            throw e;
        } catch (IOException e) {
            disconnect();
            if (!reused || answerStarted) {
                throw e;
            }
            // The server closed the kept-alive connection before answering (see the class comment).
            connect();
            try {
                return send();
            } catch (IOException again) {
                disconnect();
                throw again;
            }
        }
    }

    private int send() throws IOException {
        answerStarted = false;
        out.write(request, 0, requestLength);
        out.flush();
        readAnswer();
        return status;
    }

    private void readAnswer() throws IOException {
        int end = lineEnd();
        if (end - inputStart < 12 || !startsWith(inputStart, "HTTP/1.")) {
            throw new IOException("not an HTTP/1.x status line: " + text(inputStart, end));
        }
        boolean close = input[inputStart + 7] == '0';
        status = digit(inputStart + 9) * 100 + digit(inputStart + 10) * 10 + digit(inputStart + 11);
        inputStart = end + 1;
        long contentLength = -1;
        boolean chunked = false;
        while ((end = lineEnd()) > inputStart && !(end == inputStart + 1 && input[inputStart] == '\r')) {
            if (headerIs(CONTENT_LENGTH, end)) {
                contentLength = parseLong(inputStart + CONTENT_LENGTH.length, end, 10);
            } else if (headerIs(TRANSFER_ENCODING, end)) {
                chunked = contains(inputStart + TRANSFER_ENCODING.length, end, CHUNKED);
            } else if (headerIs(CONNECTION, end)) {
                close |= contains(inputStart + CONNECTION.length, end, CLOSE);
            }
            inputStart = end + 1;
        }
        inputStart = end + 1;
        bodyLength = 0;
        if (chunked) {
            readChunks();
        } else if (contentLength >= 0) {
            readBody(contentLength);
        } else if (status != 204 && status != 304) {
            // Neither length nor chunks: the body runs to the end of the connection.
            readToEnd();
            close = true;
        }
        if (close) {
            disconnect();
        }
    }

    private void readChunks() throws IOException {
        while (true) {
            int end = lineEnd();
            int sizeEnd = inputStart;
            while (sizeEnd < end && input[sizeEnd] != ';' && input[sizeEnd] != '\r') {
                sizeEnd++;
            }
            long size = parseLong(inputStart, sizeEnd, 16);
            inputStart = end + 1;
            if (size == 0) {
                // Trailer fields, if any, up to the empty line.
                while ((end = lineEnd()) > inputStart + 1) {
                    inputStart = end + 1;
                }
                inputStart = end + 1;
                return;
            }
            readBody(size);
            inputStart = lineEnd() + 1;
        }
    }

    /** Appends {@code length} bytes of the answer to the body. */
    private void readBody(long length) throws IOException {
        if (bodyLength + length > MESSAGE_MAX) {
            throw new IOException("answer body larger than " + MESSAGE_MAX + " bytes");
        }
        int wanted = bodyLength + (int) length;
        ensureBody(wanted);
        while (bodyLength < wanted) {
            if (inputStart == inputEnd) {
                inputStart = 0;
                inputEnd = 0;
                fill();
            }
            int n = Math.min(wanted - bodyLength, inputEnd - inputStart);
            System.arraycopy(input, inputStart, body, bodyLength, n);
            inputStart += n;
            bodyLength += n;
        }
    }

    private void readToEnd() throws IOException {
        while (true) {
            if (inputStart == inputEnd) {
                inputStart = 0;
                inputEnd = 0;
                int n = in.read(input, 0, input.length);
                if (n < 0) {
                    return;
                }
                inputEnd = n;
            }
            readBody(inputEnd - inputStart);
        }
    }

    /** The index of the {@code '\n'} ending the line at {@link #inputStart}, reading more as needed. */
    private int lineEnd() throws IOException {
        int from = inputStart;
        while (true) {
            for (int i = from; i < inputEnd; i++) {
                if (input[i] == '\n') {
                    return i;
                }
            }
            if (inputStart > 0) {
                System.arraycopy(input, inputStart, input, 0, inputEnd - inputStart);
                inputEnd -= inputStart;
                inputStart = 0;
            }
            if (inputEnd == input.length) {
                throw new IOException("answer line longer than " + input.length + " bytes");
            }
            from = inputEnd;
            fill();
        }
    }

    private void fill() throws IOException {
        int n = in.read(input, inputEnd, input.length - inputEnd);
        if (n < 0) {
            throw new EOFException("the server closed the connection");
        }
        answerStarted = true;
        inputEnd += n;
    }

    private boolean headerIs(byte[] lowerCaseName, int end) {
        if (end - inputStart < lowerCaseName.length) {
            return false;
        }
        for (int i = 0; i < lowerCaseName.length; i++) {
            // Setting bit 0x20 lower-cases a letter and leaves '-' and ':' as they are.
            if ((input[inputStart + i] | 0x20) != lowerCaseName[i]) {
                return false;
            }
        }
        return true;
    }

    /** Whether {@code input[from, to)} holds {@code lowerCaseWord}, case-insensitively. */
    private boolean contains(int from, int to, byte[] lowerCaseWord) {
        outer:
        for (int i = from; i <= to - lowerCaseWord.length; i++) {
            for (int j = 0; j < lowerCaseWord.length; j++) {
                if ((input[i + j] | 0x20) != lowerCaseWord[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }

    private long parseLong(int from, int to, int radix) throws IOException {
        long value = 0;
        int digits = 0;
        for (int i = from; i < to; i++) {
            int d = Character.digit(input[i], radix);
            if (d >= 0) {
                if (++digits > 15) {
                    throw new IOException("number too large: " + text(from, to));
                }
                value = value * radix + d;
            } else if (input[i] != ' ' && input[i] != '\t' && input[i] != '\r') {
                throw new IOException("not a number: " + text(from, to));
            }
        }
        if (digits == 0) {
            throw new IOException("no number: " + text(from, to));
        }
        return value;
    }

    private int digit(int at) throws IOException {
        int d = input[at] - '0';
        if (d < 0 || d > 9) {
            throw new IOException("bad status code in " + text(inputStart, inputStart + 12));
        }
        return d;
    }

    private boolean startsWith(int at, String prefix) {
        for (int i = 0; i < prefix.length(); i++) {
            if (input[at + i] != prefix.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    private String text(int from, int to) {
        return new String(input, from, Math.max(0, Math.min(to, inputEnd) - from), StandardCharsets.ISO_8859_1).strip();
    }

    private void ensureBody(int length) {
        if (length > body.length) {
            body = java.util.Arrays.copyOf(body, Math.min(MESSAGE_MAX, Math.max(length, 2 * body.length)));
        }
    }

    private void appendPath(CharSequence path) {
        for (int i = 0; i < path.length(); i++) {
            char c = path.charAt(i);
            if (c <= ' ' || c >= 0x7f) {
                throw new IllegalArgumentException("the bench sends paths of printable ASCII only: " + path);
            }
        }
        append(path);
    }

    private void append(CharSequence text) {
        ensureRequest(requestLength + text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c >= 0x80) {
                throw new IllegalArgumentException("the bench sends ASCII only: " + text);
            }
            request[requestLength++] = (byte) c;
        }
    }

    private void append(byte[] bytes) {
        ensureRequest(requestLength + bytes.length);
        System.arraycopy(bytes, 0, request, requestLength, bytes.length);
        requestLength += bytes.length;
    }

    private void appendDecimal(int value) {
        int digits = 1;
        for (int rest = value; rest >= 10; rest /= 10) {
            digits++;
        }
        ensureRequest(requestLength + digits);
        for (int i = requestLength + digits - 1; i >= requestLength; i--) {
            request[i] = (byte) ('0' + value % 10);
            value /= 10;
        }
        requestLength += digits;
    }

    private void ensureRequest(int length) {
        if (length > MESSAGE_MAX) {
            throw new IllegalArgumentException("request larger than " + MESSAGE_MAX + " bytes");
        }
        if (length > request.length) {
            request = java.util.Arrays.copyOf(request, Math.min(MESSAGE_MAX, Math.max(length, 2 * request.length)));
        }
    }

    private void connect() throws IOException {
        Socket opened = new Socket();
        try {
            opened.setTcpNoDelay(true);
            opened.setSoTimeout(readTimeoutMillis);
            opened.connect(address, CONNECT_TIMEOUT_MILLIS);
            in = opened.getInputStream();
            out = opened.getOutputStream();
        } catch (IOException e) {
            opened.close();
            throw e;
        }
        socket = opened;
        connections++;
        inputStart = 0;
        inputEnd = 0;
    }

    private void disconnect() {
        if (socket != null) {
            try {
                socket.close();
            } catch (IOException ignored) {
                // Closing a socket the bench is done with: nothing to do about a failure.
            }
            socket = null;
        }
    }

    @Override
    public void close() {
        disconnect();
    }

    private static byte[] ascii(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }

    /** The body buffer read as characters, without copying it. */
    private final class BodyText implements CharSequence {

        @Override
        public int length() {
            return bodyLength;
        }

        @Override
        public char charAt(int index) {
            if (index >= bodyLength) {
                throw new IndexOutOfBoundsException(index);
            }
            return (char) (body[index] & 0xff);
        }

        @Override
        public CharSequence subSequence(int start, int end) {
            return toString().substring(start, end);
        }

        @Override
        public String toString() {
            return new String(body, 0, bodyLength, StandardCharsets.UTF_8);
        }
    }
}
