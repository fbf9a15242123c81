package io.stockguard.catalogue;

import io.stockguard.platform.InvalidRequestException;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVRecord;

/**
 * The rows of an uploaded catalogue file, in file order: each CSV record (RFC 4180, read by
 * Commons CSV: a quoted field may hold commas, doubled quotes and line breaks), or each non-blank
 * JSON line. Blank lines are no rows. A file that is not UTF-8, or whose CSV does not parse (a
 * quote left open), is refused as a whole with the line where reading stopped.
 */
final class CatalogueRows implements Iterable<CatalogueRows.Row>, AutoCloseable {

    /** RFC 4180, forgiving what spreadsheets write: spaces around fields and empty lines. */
    static final CSVFormat CSV = CSVFormat.RFC4180.builder().setIgnoreSurroundingSpaces(true)
            .setIgnoreEmptyLines(true).get();

    /**
     * One row: a CSV record's fields, or a JSON line's text.
     *
     * @param line the line it ends on, counted from 1 (a record spanning lines is named by its last)
     */
    record Row(long line, List<String> cells, String text) {

        /** Characters in the row, as the file has them (near enough for the length bound). */
        int length() {
            return text != null ? text.length()
                    : cells.stream().mapToInt(String::length).sum() + Math.max(0, cells.size() - 1);
        }
    }

    private final BufferedReader in;
    private final Iterator<Row> rows;

    private CatalogueRows(BufferedReader in, Iterator<Row> rows) {
        this.in = in;
        this.rows = rows;
    }

    static CatalogueRows open(Path file, CatalogueFormat format) {
        BufferedReader in;
        try {
            in = Files.newBufferedReader(file, StandardCharsets.UTF_8);
            // Spreadsheets save CSV with a byte order mark before the first field: it is no part of it.
            in.mark(1);
            if (in.read() != '\uFEFF') {
                in.reset();
            }
        } catch (CharacterCodingException e) {
            throw refused(e, 1);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (format == CatalogueFormat.NDJSON) {
            return new CatalogueRows(in, jsonLines(in));
        }
        try {
            return new CatalogueRows(in, records(CSVParser.builder().setReader(in).setFormat(CSV).get()));
        } catch (IOException e) {
            throw refused(e, 1);
        }
    }

    @Override
    public Iterator<Row> iterator() {
        return rows;
    }

    @Override
    public void close() {
        try {
            in.close();
        } catch (IOException e) {
            // Read to its end or abandoned: nothing is lost by a close that fails.
        }
    }

    private static Iterator<Row> jsonLines(BufferedReader in) {
        return new Iterator<>() {
            private long number;
            private Row next = advance();

            private Row advance() {
                try {
                    for (String text; (text = in.readLine()) != null; ) {
                        number++;
                        if (!text.isBlank()) {
                            return new Row(number, null, text.strip());
                        }
                    }
                    return null;
                } catch (IOException e) {
                    throw refused(e, number + 1);
                }
            }

            @Override
            public boolean hasNext() {
                return next != null;
            }

            @Override
            public Row next() {
                if (next == null) {
                    throw new NoSuchElementException();
                }
                Row row = next;
                next = advance();
                return row;
            }
        };
    }

    private static Iterator<Row> records(CSVParser parser) {
        Iterator<CSVRecord> records = parser.iterator();
        return new Iterator<>() {
            @Override
            public boolean hasNext() {
                try {
                    return records.hasNext();
                } catch (UncheckedIOException e) {
                    throw refused(e.getCause(), parser.getCurrentLineNumber() + 1);
                }
            }

            @Override
            public Row next() {
                CSVRecord record;
                try {
                    record = records.next();
                } catch (UncheckedIOException e) {
                    throw refused(e.getCause(), parser.getCurrentLineNumber() + 1);
                }
                List<String> cells = new ArrayList<>(record.size());
                record.forEach(cells::add);
                return new Row(Math.max(1, parser.getCurrentLineNumber()), List.copyOf(cells), null);
            }
        };
    }

    private static InvalidRequestException refused(IOException e, long line) {
        if (e instanceof CharacterCodingException) {
            return new InvalidRequestException("body", "is not UTF-8 text (line " + line + ")");
        }
        return new InvalidRequestException("body", "cannot be read as CSV at line " + line + ": " + e.getMessage()
                + " (a quoted field must end with a quote; a quote inside one is written twice)");
    }
}
