package io.stockguard.chaos.history;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import tools.jackson.databind.json.JsonMapper;

/**
 * A run's history: operations in the order they were recorded, each with its index and its time
 * since the run started. Thread-safe; written and read as JSON lines, one {@link Op} per line.
 */
public final class History {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final List<Op> ops = new ArrayList<>();
    private final long startNanos;
    /** The wall clock when the history started, to place what other processes logged in its time. */
    private final long startEpochMillis;

    public History() {
        this(System.nanoTime());
    }

    private History(long startNanos) {
        this.startNanos = startNanos;
        this.startEpochMillis = System.currentTimeMillis();
    }

    /** Milliseconds since the history started of a wall-clock instant (epoch milliseconds). */
    public long millisOf(long epochMillis) {
        return epochMillis - startEpochMillis;
    }

    /** A history of recorded operations (for the checker's tests and for reading a file back). */
    public static History of(List<Op> ops) {
        History history = new History(System.nanoTime());
        history.ops.addAll(ops);
        return history;
    }

    /** Records an invocation; {@code template}'s index, type and time are replaced. */
    public synchronized Op invoke(Op template) {
        Op op = new Op(ops.size(), template.process(), Op.Type.INVOKE, template.f(), millis(), template.instance(),
                template.orderId(), template.lines(), template.commit(), template.ttlSeconds(), template.skuId(),
                template.qty(), template.requestId(), null, null, null, null, null, template.numbers(),
                template.detail());
        ops.add(op);
        return op;
    }

    /** Records the completion of {@code invocation}, with what came back. */
    public synchronized Op complete(Op invocation, Op.Type type, UnaryOperator<Op> answer) {
        Op op = answer.apply(invocation.complete(ops.size(), type, millis()));
        ops.add(op);
        return op;
    }

    public synchronized long millis() {
        return (System.nanoTime() - startNanos) / 1_000_000;
    }

    public synchronized List<Op> ops() {
        return List.copyOf(ops);
    }

    public void write(Path file) {
        try (BufferedWriter out = Files.newBufferedWriter(file)) {
            for (Op op : ops()) {
                out.write(JSON.writeValueAsString(op));
                out.newLine();
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the history to " + file, e);
        }
    }

    public static History read(Path file) {
        try {
            List<Op> read = new ArrayList<>();
            for (String line : Files.readAllLines(file)) {
                if (!line.isBlank()) {
                    read.add(JSON.readValue(line, Op.class));
                }
            }
            return of(read);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the history " + file, e);
        }
    }
}
