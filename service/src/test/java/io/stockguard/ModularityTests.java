package io.stockguard;

import org.junit.jupiter.api.Test;
import org.springframework.modulith.core.ApplicationModules;
import org.springframework.modulith.docs.Documenter;

/**
 * The module structure of STYLE.md, checked on every build: each top-level package is a module,
 * sub-packages are internal, and a module only uses the modules its package-info allows.
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
