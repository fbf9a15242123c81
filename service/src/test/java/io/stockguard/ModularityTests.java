package io.stockguard;

import org.junit.jupiter.api.Test;
import org.springframework.modulith.core.ApplicationModules;
import org.springframework.modulith.docs.Documenter;

/**
 * The module structure (packages by capability), checked on every build: each top-level package is a module,
 * sub-packages are internal, a module only uses the modules its package-info allows, and no two modules
 * depend on each other in a circle. The hot store ({@code hotstore}) and the database's stock
 * ({@code ledger}) allow each other nowhere: they meet only through the ports of {@code reservation}
 * and {@code journal}.
 */
class ModularityTests {

    private final ApplicationModules modules = ApplicationModules.of(StockGuardApplication.class);

    @Test
    void modulesOnlyDependOnWhatTheyDeclare() {
        modules.verify();
    }

    @Test
    void writesModuleDocumentation() {
        new Documenter(modules).writeModulesAsPlantUml().writeIndividualModulesAsPlantUml();
    }
}
