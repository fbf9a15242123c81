package io.stockguard.chaos.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class BooksTest {

    @Test
    void aLineBalancesOnlyWhenTheStoresHoldExactlyWhatTheOrdersWereTold() {
        Books.Line exact = new Books.Line("SMALL-2", 1000, 348, 325, 325, 327, 327, 0, 0L);
        Books.Line heldApart = new Books.Line("SMALL-2", 1000, 350, 325, 327, 325, 325, 0, 0L);
        Books.Line soldApart = new Books.Line("SMALL-6", 1000, 409, 291, 291, 300, 301, 0, 0L);
        Books.Line drifted = new Books.Line("SMALL-8", 1000, 393, 303, 303, 304, 304, 0, 2L);

        assertThat(exact.balanced()).isTrue();
        assertThat(List.of(heldApart, soldApart, drifted)).noneMatch(Books.Line::balanced);
        assertThat(Books.render(List.of(exact, heldApart))).contains("SMALL-2     1000       350      325 (   327)")
                .contains("<- look").doesNotContain("which the bank rule allows for");
    }
}
