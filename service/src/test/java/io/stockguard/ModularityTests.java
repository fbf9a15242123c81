package io.stockguard;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;
import org.springframework.modulith.core.ApplicationModules;
import org.springframework.modulith.docs.Documenter;

/**
 * The module structure (packages by capability), checked on every build: each top-level package is a module,
 * sub-packages are internal, and a module only uses the modules its package-info allows.
 */
class ModularityTests {

    private final ApplicationModules modules = ApplicationModules.of(StockGuardApplication.class);

    @Test
    void modulesOnlyDependOnWhatTheyDeclare() {
        modules.verify();
    }

    /**
     * The adapters of a module do not know each other (buckpal's dependency rule): the hot store
     * reaches the database only through the ports the reservation module declares
     * ({@code OwnershipStore}, {@code HotStoreSource}, {@code DatabaseLedger}), never by importing
     * the database adapter, and the database adapter knows nothing of Redis.
     */
    @Test
    void theReservationModulesAdaptersDoNotImportEachOther() {
        JavaClasses classes = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.stockguard");
        noClasses().that().resideInAPackage("io.stockguard.reservation.redis..")
                .should().dependOnClassesThat().resideInAPackage("io.stockguard.reservation.jdbc..")
                .because("the hot store reaches the database only through the module's ports").check(classes);
        noClasses().that().resideInAPackage("io.stockguard.reservation.jdbc..")
                .should().dependOnClassesThat().resideInAPackage("io.stockguard.reservation.redis..")
                .because("the database ledger knows nothing of the hot store").check(classes);
    }

    @Test
    void writesModuleDocumentation() {
        new Documenter(modules).writeModulesAsPlantUml().writeIndividualModulesAsPlantUml();
    }
}
