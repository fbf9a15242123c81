package io.stockguard.bench.stockguard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stockguard.bench.Contender.Outcome;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The lean client against a scripted server: the framings Tomcat may answer with, and connections it ends. */
class LeanHttpTest {

    private ScriptedServer server;

    @BeforeEach
    void start() throws IOException {
        server = new ScriptedServer();
    }

    @AfterEach
    void stop() throws IOException {
        server.close();
    }

    @Test
    void sendsOneWellFormedRequestAndReadsAContentLengthBodyOnAKeptAliveConnection() throws Exception {
        String created = "{\"ok\":true}\n";
        String stock = "{\"skuId\":\"A\",\"available\": 7,\"buckets\":[{\"available\":1}]}";
        server.answer("HTTP/1.1 201 \r\nContent-Type: application/json\r\nContent-Length: " + created.length()
                + "\r\n\r\n" + created);
        server.answer("HTTP/1.1 200 OK\r\ncontent-length:" + stock.length() + "\r\n\r\n" + stock);
        try (LeanHttp http = new LeanHttp(server.port(), "key")) {
            assertThat(http.post("/api/v1/reservations", "{\"a\":1}")).isEqualTo(201);
            assertThat(http.body().toString()).isEqualTo(created);
            assertThat(http.get("/api/v1/skus/A")).isEqualTo(200);
            assertThat(StockApi.available(200, http.body())).isEqualTo(7);
            assertThat(http.connections()).isEqualTo(1);
        }
        assertThat(server.requests()).containsExactly(
                "POST /api/v1/reservations HTTP/1.1\r\nHost: 127.0.0.1:" + server.port() + "\r\nAuthorization: Bearer "
                        + "key\r\nContent-Type: application/json\r\nContent-Length: 7\r\n\r\n{\"a\":1}",
                "GET /api/v1/skus/A HTTP/1.1\r\nHost: 127.0.0.1:" + server.port() + "\r\nAuthorization: Bearer "
                        + "key\r\n\r\n");
    }

    @Test
    void readsAChunkedProblemAsSoldOut() throws Exception {
        String problem = "{\"code\":\"INSUFFICIENT_STOCK\",\"status\":409}";
        server.answer("HTTP/1.1 409 \r\nTransfer-Encoding: chunked\r\n\r\n" + Integer.toHexString(10) + "\r\n"
                + problem.substring(0, 10) + "\r\n" + Integer.toHexString(problem.length() - 10) + ";ext=1\r\n"
                + problem.substring(10) + "\r\n0\r\n\r\n");
        server.answer("HTTP/1.1 500 \r\nContent-Length: 2\r\n\r\n{}");
        try (LeanHttp http = new LeanHttp(server.port(), "key")) {
            int status = http.post("/r", "{}");
            assertThat(http.body().toString()).isEqualTo(problem);
            assertThat(StockApi.attempt(status, http.body()).outcome()).isEqualTo(Outcome.SOLD_OUT);
            status = http.post("/r", "{}");
            assertThat(StockApi.attempt(status, http.body()).outcome()).isEqualTo(Outcome.ERROR);
            assertThat(http.connections()).isEqualTo(1);
        }
    }

    @Test
    void reconnectsAfterConnectionCloseAndWhenTheServerEndsAKeptAliveConnection() throws Exception {
        server.answer("HTTP/1.1 201 \r\nConnection: close\r\nContent-Length: 0\r\n\r\n", true);
        server.answer("HTTP/1.1 201 \r\nContent-Length: 0\r\n\r\n");
        // The server ends this connection without answering the next request: it is sent again.
        server.hangUp();
        server.answer("HTTP/1.1 200 \r\nContent-Length: 0\r\n\r\n");
        try (LeanHttp http = new LeanHttp(server.port(), "key")) {
            assertThat(http.post("/r", "{}")).isEqualTo(201);
            assertThat(http.post("/r", "{}")).isEqualTo(201);
            assertThat(http.post("/r", "{}")).isEqualTo(200);
            assertThat(http.connections()).isEqualTo(3);
        }
        assertThat(server.connections()).isEqualTo(3);
    }

    @Test
    void aBodyWithoutLengthRunsToTheEndOfTheConnection() throws Exception {
        server.answer("HTTP/1.1 200 \r\n\r\n{\"available\":3}", true);
        server.answer("HTTP/1.1 200 \r\nContent-Length: 15\r\n\r\n{\"available\":4}");
        try (LeanHttp http = new LeanHttp(server.port(), "key")) {
            assertThat(StockApi.available(http.get("/s"), http.body())).isEqualTo(3);
            assertThat(StockApi.available(http.get("/s"), http.body())).isEqualTo(4);
            assertThat(http.connections()).isEqualTo(2);
        }
    }

    @Test
    void aServerThatDoesNotAnswerTimesOutInsteadOfBeingAskedAgain() throws Exception {
        server.answer("HTTP/1.1 200 \r\nContent-Length: 0\r\n\r\n");
        try (LeanHttp http = new LeanHttp(server.port(), "key", 300)) {
            assertThat(http.get("/s")).isEqualTo(200);
            assertThatThrownBy(() -> http.get("/s")).isInstanceOf(SocketTimeoutException.class);
            assertThat(http.connections()).isEqualTo(1);
        }
    }

    @Test
    void refusesWhatItCannotSendAsIs() {
        try (LeanHttp http = new LeanHttp(server.port(), "key")) {
            assertThatThrownBy(() -> http.get("/skus/a b")).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> http.post("/r", "{\"sku\":\"é\"}")).isInstanceOf(IllegalArgumentException.class);
        }
    }

    /**
     * Answers each request it reads with the next scripted answer, on whatever connection it came;
     * a hang-up ends the connection instead, without reading or answering.
     */
    private static final class ScriptedServer implements AutoCloseable {

        private static final String HANG_UP = "";

        private final ServerSocket socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        private final BlockingQueue<String> answers = new LinkedBlockingQueue<>();
        private final List<Boolean> closeAfter = new ArrayList<>();
        private final List<String> requests = new ArrayList<>();
        private final AtomicInteger connections = new AtomicInteger();
        private final Thread thread = Thread.ofPlatform().daemon().start(this::serve);

        ScriptedServer() throws IOException {
        }

        int port() {
            return socket.getLocalPort();
        }

        void answer(String answer) {
            answer(answer, false);
        }

        synchronized void answer(String answer, boolean close) {
            answers.add(answer);
            closeAfter.add(close);
        }

        synchronized void hangUp() {
            answers.add(HANG_UP);
            closeAfter.add(true);
        }

        synchronized List<String> requests() {
            return List.copyOf(requests);
        }

        int connections() {
            return connections.get();
        }

        private void serve() {
            int answered = 0;
            while (!socket.isClosed()) {
                try (Socket connection = socket.accept()) {
                    connections.incrementAndGet();
                    InputStream in = connection.getInputStream();
                    OutputStream out = connection.getOutputStream();
                    while (true) {
                        String answer = answers.poll(10, TimeUnit.SECONDS);
                        if (answer == null) {
                            break;
                        }
                        boolean close;
                        synchronized (this) {
                            close = closeAfter.get(answered++);
                        }
                        if (answer.equals(HANG_UP)) {
                            break;
                        }
                        String request = readRequest(in);
                        if (request == null) {
                            break;
                        }
                        synchronized (this) {
                            requests.add(request);
                        }
                        out.write(answer.getBytes(StandardCharsets.UTF_8));
                        out.flush();
                        if (close) {
                            break;
                        }
                    }
                } catch (IOException | InterruptedException e) {
                    return;
                }
            }
        }

        /** A request's head and, by its Content-Length, body; null when the connection ends first. */
        private static String readRequest(InputStream in) throws IOException {
            ByteArrayOutputStream head = new ByteArrayOutputStream();
            while (!head.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
                int b = in.read();
                if (b < 0) {
                    return null;
                }
                head.write(b);
            }
            String text = head.toString(StandardCharsets.ISO_8859_1);
            int at = text.indexOf("Content-Length: ");
            int length = at < 0 ? 0 : Integer.parseInt(text.substring(at + 16, text.indexOf('\r', at)));
            return text + new String(in.readNBytes(length), StandardCharsets.ISO_8859_1);
        }

        @Override
        public void close() throws IOException {
            socket.close();
            thread.interrupt();
        }
    }
}
