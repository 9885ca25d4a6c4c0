package dev.stockhold;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.methods;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noMethods;

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

/** The dependency rules of the layout, stated so they cannot rot silently. */
class ArchitectureTest {

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
