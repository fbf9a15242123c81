package io.stockguard.chaos.workload;

/** A service instance as clients reach it: its name in the history and its address. */
public record Target(String name, String baseUrl) {
}
