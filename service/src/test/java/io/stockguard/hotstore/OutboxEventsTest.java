package io.stockguard.hotstore;

import static org.assertj.core.api.Assertions.assertThat;

import io.stockguard.journal.StockEvent;
import io.stockguard.journal.StockOp;
import io.stockguard.stock.CustomerId;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * An outbox entry read back as the event it journals: what a retry or the sweeper journals must
 * be the event the reservation made, its customer included (the database counts the customer's
 * units by it).
 */
class OutboxEventsTest {

    private static Map<String, String> reserveEntry(String customer) {
        Map<String, String> fields = new HashMap<>(Map.ofEntries(Map.entry("id", "e-1"), Map.entry("sku", "SKU-1"),
                Map.entry("b", "2"), Map.entry("op", "RESERVE"), Map.entry("o", "o-1"), Map.entry("rq", ""),
                Map.entry("q", "3"), Map.entry("da", "-3"), Map.entry("dr", "3"), Map.entry("ds", "0"),
                Map.entry("ep", "4"), Map.entry("sq", "17"), Map.entry("tr", ""), Map.entry("ac", "api-key:shop"),
                Map.entry("at", "1000"), Map.entry("fp", "fp-1"), Map.entry("ex", "901000"), Map.entry("ha", "7"),
                Map.entry("hj", "-3")));
        if (customer != null) {
            fields.put("cu", customer);
        }
        return fields;
    }

    @Test
    void aReservationForACustomerKeepsItsCustomer() {
        StockEvent event = OutboxEvents.toEvent(reserveEntry("c-42"));
        assertThat(event.op()).isEqualTo(StockOp.RESERVE);
        assertThat(event.customerId()).isEqualTo(CustomerId.of("c-42"));
        assertThat(event.fingerprint()).isEqualTo("fp-1");
        assertThat(event.qty()).isEqualTo(3);
    }

    @Test
    void anEntryForNobodyOrFromBeforeCustomersHasNone() {
        assertThat(OutboxEvents.toEvent(reserveEntry("")).customerId()).isNull();
        assertThat(OutboxEvents.toEvent(reserveEntry(null)).customerId()).isNull();
    }
}
