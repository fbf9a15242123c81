package io.stockguard.chaos.check;

import static io.stockguard.chaos.check.HistoryFixtures.history;
import static io.stockguard.chaos.check.Scenarios.accepts;
import static io.stockguard.chaos.check.Scenarios.rejects;
import static org.assertj.core.api.Assertions.assertThat;

import io.stockguard.chaos.history.Customers;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class CustomerLimitTest {

    private static RuleResult customerLimit(HistoryFixtures fixtures) {
        return Scenarios.check(fixtures).result(CustomerLimit.NAME);
    }

    /** Order ids the workload would place for one customer, and one it would place for nobody. */
    private static List<String> ordersOf(String customer, int count) {
        List<String> orders = new ArrayList<>();
        for (int i = 0; orders.size() < count; i++) {
            if (customer.equals(Customers.of("o" + i))) {
                orders.add("o" + i);
            }
        }
        return orders;
    }

    private static String anonymousOrder() {
        for (int i = 0; ; i++) {
            if (Customers.of("o" + i) == null) {
                return "o" + i;
            }
        }
    }

    @Test
    void acceptsCleanRun() {
        accepts(customerLimit(Scenarios.cleanRun()));
    }

    @Test
    void acceptsACustomerAtTheLimitWhoseOtherOrdersWereRefusedOrEnded() {
        List<String> orders = ordersOf("u1", 4);
        accepts(customerLimit(history().skuLimited("HOT", 100, 3)
                .reserve("c0", orders.get(0), "HOT:2").created()
                .reserve("c1", orders.get(1), "HOT:1").created()
                .reserve("c2", orders.get(2), "HOT:1").fail(409, "LIMIT_EXCEEDED")
                .reserve("c3", orders.get(3), "HOT:2").created()
                .cancel("c3", orders.get(3)).ok()
                .confirm("c0", orders.get(0)).ok()
                .finalOrder(orders.get(0), "CONFIRMED", "HOT:2")
                .finalOrder(orders.get(1), "RESERVED", "HOT:1")
                .finalUnknown(orders.get(2))
                .finalOrder(orders.get(3), "CANCELLED", "HOT:2")));
    }

    @Test
    void rejectsACustomerHoldingMoreThanTheLimitAtTheEnd() {
        List<String> orders = ordersOf("u2", 2);
        RuleResult result = customerLimit(history().skuLimited("HOT", 100, 3)
                .reserve("c0", orders.get(0), "HOT:2").created()
                .reserve("c1", orders.get(1), "HOT:2").created()
                .confirm("c1", orders.get(1)).ok()
                .finalOrder(orders.get(0), "RESERVED", "HOT:2")
                .finalOrder(orders.get(1), "CONFIRMED", "HOT:2"));
        rejects(result, 1, "customer u2 holds 4 of HOT at the end, past its limit of 3", orders.get(1));
    }

    @Test
    void rejectsALimitRefusalOfAnOrderForNobody() {
        String order = anonymousOrder();
        rejects(customerLimit(history().skuLimited("HOT", 100, 3)
                        .reserve("c0", order, "HOT:1").fail(409, "LIMIT_EXCEEDED")
                        .finalUnknown(order)),
                1, "order " + order + " names no customer but was refused LIMIT_EXCEEDED");
    }

    /** The limit travels with the create-sku a run records, as the workload records it. */
    @Test
    void aRecordedCreationKeepsItsLimit() {
        io.stockguard.chaos.history.History history = new io.stockguard.chaos.history.History();
        io.stockguard.chaos.history.Op invoked = history.invoke(new io.stockguard.chaos.history.Op(0, "setup",
                io.stockguard.chaos.history.Op.Type.INVOKE, "create-sku", 0, "a", null, null, null, null, "HOT", 100L,
                null, null, null, null, null, null, java.util.Map.of(Customers.LIMIT, 3L), null));
        history.complete(invoked, io.stockguard.chaos.history.Op.Type.OK, op -> op.withAnswer(201, null, null, null,
                null, null, null, null));
        assertThat(Evidence.of(history).skus()).singleElement()
                .satisfies(sku -> assertThat(sku.limitPerCustomer()).hasValue(3));
    }

    @Test
    void aSkuWithoutALimitHoldsAnyAmount() {
        List<String> orders = ordersOf("u3", 2);
        RuleResult result = customerLimit(history().sku("FREE", 100)
                .reserve("c0", orders.get(0), "FREE:50").created()
                .reserve("c1", orders.get(1), "FREE:50").created()
                .finalOrder(orders.get(0), "RESERVED", "FREE:50")
                .finalOrder(orders.get(1), "RESERVED", "FREE:50"));
        accepts(result);
        assertThat(result.summary()).contains("0 limited SKUs");
    }
}
