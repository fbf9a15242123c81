package io.stockguard.catalogue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stockguard.platform.Actor;
import io.stockguard.platform.Caller;
import io.stockguard.platform.InvalidRequestException;
import io.stockguard.reservation.StockCommand;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The catalogue's CSV is RFC 4180: quoted fields, commas, doubled quotes and line breaks inside
 * them, spaces around fields, blank lines and a spreadsheet's byte order mark. Each row keeps the
 * line it ends on, which is what a refusal names; a quote left open refuses the file.
 */
class CatalogueRowsTest {

    private static final Caller CALLER = new Caller(new Actor(Actor.Kind.ADMIN_KEY, "ops"), null);

    @TempDir
    Path dir;

    @Test
    void quotedFieldsCommasQuotesAndLineBreaksAreFieldsNotSeparators() throws IOException {
        List<CatalogueRows.Row> rows = rows("""
                \uFEFF"sku" , "total",buckets
                "LIPSTICK-01","8000",8

                MASCARA-02 , 150 ,
                "BAD-1","1,000",
                "BAD-2","a ""quoted"" note",
                "BAD-3","12
                34",
                LAST,5,1""");

        assertThat(rows).extracting(CatalogueRows.Row::line).containsExactly(1L, 2L, 4L, 5L, 6L, 8L, 9L);
        assertThat(rows.get(3).cells()).containsExactly("BAD-1", "1,000", "");
        assertThat(rows.get(4).cells()).containsExactly("BAD-2", "a \"quoted\" note", "");
        assertThat(rows.get(5).cells()).containsExactly("BAD-3", "12\n34", "");

        CatalogueFormat.Reader reader = CatalogueFormat.CSV.reader(CALLER);
        assertThat(reader.header(rows.get(0))).isTrue();
        List<ImportLine> lines = new ArrayList<>();
        rows.subList(1, rows.size()).forEach(row -> lines.add(reader.line(row)));
        assertThat(((ImportLine.Valid) lines.get(0)).upsert()).extracting(StockCommand.Upsert::total,
                StockCommand.Upsert::bucketCount).containsExactly(8000L, 8);
        assertThat(((ImportLine.Valid) lines.get(1)).upsert().skuId().value()).isEqualTo("MASCARA-02");
        assertThat(((ImportLine.Valid) lines.get(1)).upsert().total()).isEqualTo(150L);
        // A thousands separator is one field now, refused as a number, not as a line of four values.
        assertThat(((ImportLine.Invalid) lines.get(2)).error().message()).contains("total")
                .contains("'1,000'");
        assertThat(((ImportLine.Invalid) lines.get(2)).error().line()).isEqualTo(5);
        assertThat(((ImportLine.Invalid) lines.get(3)).error().message()).contains("a \"quoted\" note");
        assertThat(((ImportLine.Invalid) lines.get(4)).error().line()).as("the line the record ends on").isEqualTo(8);
        assertThat(lines.get(5)).isInstanceOf(ImportLine.Valid.class);
    }

    @Test
    void aQuoteLeftOpenRefusesTheWholeFileNamingWhereReadingStopped() throws IOException {
        Path file = write("sku,total\nA-1,5\n\"B-2,7\nC-3,9\n");
        assertThatThrownBy(() -> {
            try (CatalogueRows rows = CatalogueRows.open(file, CatalogueFormat.CSV)) {
                rows.forEach(row -> { });
            }
        }).isInstanceOf(InvalidRequestException.class).hasMessageContaining("cannot be read as CSV")
                .hasMessageContaining("quote");
    }

    @Test
    void anExportIsReadBackAsTheSameFields() throws IOException {
        List<CatalogueRows.Row> rows = rows(CatalogueFormat.CSV.header() + "A-1,10,8,0,,0\n");
        assertThat(rows.get(1).cells()).containsExactly("A-1", "10", "8", "0", "", "0");
    }

    @Test
    void jsonLinesAreRowsOfTextAndBlankLinesAreNone() throws IOException {
        Path file = write("{\"sku\":\"A-1\",\"total\":5}\n\n  {\"sku\":\"B-2\",\"total\":7}  \n");
        List<CatalogueRows.Row> rows = new ArrayList<>();
        try (CatalogueRows read = CatalogueRows.open(file, CatalogueFormat.NDJSON)) {
            read.forEach(rows::add);
        }
        assertThat(rows).extracting(CatalogueRows.Row::line).containsExactly(1L, 3L);
        assertThat(rows.get(1).text()).isEqualTo("{\"sku\":\"B-2\",\"total\":7}");
    }

    private List<CatalogueRows.Row> rows(String csv) throws IOException {
        List<CatalogueRows.Row> rows = new ArrayList<>();
        try (CatalogueRows read = CatalogueRows.open(write(csv), CatalogueFormat.CSV)) {
            read.forEach(rows::add);
        }
        return rows;
    }

    private Path write(String text) throws IOException {
        return Files.writeString(dir.resolve("catalogue-" + System.nanoTime()), text, StandardCharsets.UTF_8);
    }
}
