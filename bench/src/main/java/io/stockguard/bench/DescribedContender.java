package io.stockguard.bench;

/**
 * A contender that says what it is once, at construction: its name, what it does, and whether it
 * claims never to oversell. The naive baselines and the correct techniques differ only in how a
 * session takes stock.
 */
public abstract class DescribedContender implements Contender {

    private final String name;
    private final String description;
    private final boolean claimsCorrectness;

    protected DescribedContender(String name, String description, boolean claimsCorrectness) {
        this.name = name;
        this.description = description;
        this.claimsCorrectness = claimsCorrectness;
    }

    @Override
    public final String name() {
        return name;
    }

    @Override
    public final String description() {
        return description;
    }

    @Override
    public final boolean claimsCorrectness() {
        return claimsCorrectness;
    }
}
