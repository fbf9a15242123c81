package io.stockguard.chaos.check;

import io.stockguard.chaos.history.Customers;
import io.stockguard.chaos.history.Op;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * A SKU's per-customer limit holds: at the end, the units of a limited SKU in one customer's orders
 * that are held or sold (RESERVED or CONFIRMED) are at most the limit, whatever faults came between;
 * and only an order placed for a customer is ever refused LIMIT_EXCEEDED. The customer of an order
 * is {@link Customers#of}, as the workload chose it.
 */
final class CustomerLimit extends Rule {

    static final String NAME = "customer-limit";

    CustomerLimit() {
        super(NAME);
    }

    @Override
    String judge(Evidence evidence, CheckOptions options, Violations violations) {
        Map<String, Long> limits = new LinkedHashMap<>();
        for (SkuFacts sku : evidence.skus()) {
            OptionalLong limit = sku.limitPerCustomer();
            if (limit.isPresent()) {
                limits.put(sku.skuId(), limit.getAsLong());
            }
        }
        // SKU -> customer -> units held or sold at the end, and the orders that hold them.
        Map<String, Map<String, Long>> held = new LinkedHashMap<>();
        Map<String, Map<String, List<Op>>> evidenceOf = new LinkedHashMap<>();
        int customerOrders = 0;
        for (OrderFacts order : evidence.orders()) {
            String customer = Customers.of(order.orderId());
            for (Attempt reserve : order.reserves()) {
                Op answer = reserve.answer();
                if (customer == null && answer != null && "LIMIT_EXCEEDED".equals(answer.code())) {
                    violations.add("order " + order.orderId() + " names no customer but was refused "
                            + "LIMIT_EXCEEDED", order.ops());
                }
            }
            if (customer == null) {
                continue;
            }
            customerOrders++;
            OrderState state = order.finalState().orElse(null);
            if (state != OrderState.RESERVED && state != OrderState.CONFIRMED) {
                continue;
            }
            for (Op.Line line : order.requestedLines()) {
                if (limits.containsKey(line.skuId())) {
                    held.computeIfAbsent(line.skuId(), k -> new LinkedHashMap<>()).merge(customer,
                            (long) line.qty(), Long::sum);
                    evidenceOf.computeIfAbsent(line.skuId(), k -> new LinkedHashMap<>())
                            .computeIfAbsent(customer, k -> new ArrayList<>()).addAll(order.ops());
                }
            }
        }
        held.forEach((sku, customers) -> customers.forEach((customer, units) -> {
            if (units > limits.get(sku)) {
                violations.add("customer " + customer + " holds " + units + " of " + sku + " at the end, past its "
                        + "limit of " + limits.get(sku), evidenceOf.get(sku).get(customer));
            }
        }));
        return violations.none()
                ? customerOrders + " orders of " + Customers.COUNT + " customers on " + limits.size()
                        + " limited SKUs: none holds more than the limit"
                : violations.count() + " customers or orders broke a per-customer limit";
    }
}
