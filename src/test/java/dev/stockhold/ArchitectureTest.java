package dev.stockhold;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.methods;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noMethods;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.List;

import jakarta.annotation.security.RolesAllowed;
import jakarta.persistence.Entity;
import jakarta.ws.rs.Path;

import org.junit.jupiter.api.Test;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaMethod;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;

import dev.stockhold.support.Repository;
import dev.stockhold.support.SourceDependencies;

/**
 * The dependency rules of the layout, stated so they cannot rot silently: over the bytecode (ArchUnit) and over the
 * source ({@link SourceDependencies}), since a compile-time constant is inlined and its class never shows in bytecode.
 */
class ArchitectureTest {

    /** Which packages of the service may not reach which, as the source states it (import or qualified name). */
    static final List<SourceDependencies.Rule> RULES = List.of(
            new SourceDependencies.Rule("web and security depend on no feature", List.of("web", "security"),
                    List.of("reservation", "inventory", "idempotency", "outbox", "ops", "settings", "events", "chaos")),
            new SourceDependencies.Rule("the lower features do not depend on reservations", List.of("inventory", "idempotency", "outbox"),
                    List.of("reservation", "chaos")),
            new SourceDependencies.Rule("the root (settings, database runner, time, logging) depends on no package of the service",
                    List.of(""),
                    List.of("web", "security", "reservation", "inventory", "idempotency", "outbox", "ops", "settings", "events",
                            "chaos")),
            new SourceDependencies.Rule("event payloads depend on nothing of the service", List.of("events"),
                    List.of("", "web", "security", "reservation", "inventory", "idempotency", "outbox", "ops", "settings", "chaos")),
            new SourceDependencies.Rule("the service never depends on its chaos harness", List.of("", "web", "security", "reservation",
                    "inventory", "idempotency", "outbox", "ops", "settings", "events", "devmode"), List.of("chaos")));

    @Test
    void theSourceKeepsTheRulesToo() throws IOException {
        assertThat(SourceDependencies.violations(Repository.path("src/main/java"), RULES)).isEmpty();
    }

    @Test
    void aPlantedSourceImportIsCaught() {
        String planted = """
                package dev.stockhold.web;

                // a comment naming dev.stockhold.reservation.ReservationStatus is no dependency
                import static dev.stockhold.idempotency.IdempotencyKey.HEADER;
                import dev.stockhold.web.Text;

                class Planted {
                    String s = dev.stockhold.outbox.OutboxWriter.class.getName() + HEADER;
                }
                """;
        assertThat(SourceDependencies.violations("Planted.java", planted, RULES)).containsExactly(
                "Planted.java (web) uses dev.stockhold.idempotency.IdempotencyKey: web and security depend on no feature",
                "Planted.java (web) uses dev.stockhold.outbox.OutboxWriter: web and security depend on no feature");
    }

    static final JavaClasses MAIN = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.stockhold");

    @Test
    void webAndSecurityShouldNotDependOnFeatures() {
        noClasses().that().resideInAnyPackage("dev.stockhold.web..", "dev.stockhold.security..")
                .should().dependOnClassesThat().resideInAnyPackage("dev.stockhold.reservation..", "dev.stockhold.inventory..",
                        "dev.stockhold.idempotency..", "dev.stockhold.outbox..")
                .check(MAIN);
    }

    @Test
    void lowerFeaturesShouldNotDependOnReservations() {
        noClasses().that().resideInAnyPackage("dev.stockhold.inventory..", "dev.stockhold.idempotency..", "dev.stockhold.outbox..")
                .should().dependOnClassesThat().resideInAPackage("dev.stockhold.reservation..")
                .check(MAIN);
    }

    /**
     * The event payloads are a contract of their own: they depend on nothing of the service (no API body, entity or
     * annotation but JSON inclusion), so a change to a REST body cannot reach an event.
     */
    @Test
    void eventPayloadsShouldDependOnNothingOfTheService() {
        com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes().that().resideInAPackage("dev.stockhold.events..")
                .should().onlyDependOnClassesThat().resideInAnyPackage("dev.stockhold.events..", "java..",
                        "com.fasterxml.jackson.annotation..", "io.quarkus.runtime.annotations..")
                .check(MAIN);
    }

    @Test
    void resourcesShouldNeverReturnEntities() {
        noMethods().that().areDeclaredInClassesThat().areAnnotatedWith(Path.class)
                .should().haveRawReturnType(com.tngtech.archunit.base.DescribedPredicate.describe("an entity",
                        (com.tngtech.archunit.core.domain.JavaClass c) -> c.isAnnotatedWith(Entity.class)))
                .check(MAIN);
    }

    @Test
    void everyEndpointShouldDeclareItsRoles() {
        methods().that().areDeclaredInClassesThat().areAnnotatedWith(Path.class).and().arePublic()
                .should(new ArchCondition<JavaMethod>(
                        "declare @RolesAllowed, or @PermitAll for a deliberately public page, on the method or its class") {
                    @Override
                    public void check(JavaMethod method, ConditionEvents events) {
                        boolean declared = method.isAnnotatedWith(RolesAllowed.class)
                                || method.getOwner().isAnnotatedWith(RolesAllowed.class)
                                || method.isAnnotatedWith(jakarta.annotation.security.PermitAll.class)
                                || method.getOwner().isAnnotatedWith(jakarta.annotation.security.PermitAll.class);
                        if (!declared) {
                            events.add(SimpleConditionEvent.violated(method, method.getFullName() + " has no @RolesAllowed or @PermitAll"));
                        }
                    }
                })
                .check(MAIN);
    }
}
