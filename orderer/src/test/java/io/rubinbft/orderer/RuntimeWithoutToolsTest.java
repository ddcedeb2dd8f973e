package io.rubinbft.orderer;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.type;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import io.rubinbft.orderer.cli.Main;
import org.junit.jupiter.api.Test;

/**
 * Rule 'runtime-without-tools' (docs/ARCHITECTURE.md): the node's runtime never depends on the
 * tooling in {@code io.rubinbft.orderer.tools} (crypto material and genesis blocks for a local
 * network, the local-cluster configs, the load generator, and their commands), so the tooling can
 * change, or leave the node's image, without touching what runs in production. Only the launcher's
 * entry point {@link Main} names the tools' commands.
 */
class RuntimeWithoutToolsTest {

  @Test
  void runtimeNeverDependsOnTools() {
    JavaClasses classes =
        new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.rubinbft");

    noClasses()
        .that()
        .resideOutsideOfPackage("io.rubinbft.orderer.tools..")
        .and(not(type(Main.class)))
        .should()
        .dependOnClassesThat(resideInAPackage("io.rubinbft.orderer.tools.."))
        .as(
            "rule 'runtime-without-tools': only io.rubinbft.orderer.tools and the launcher's"
                + " entry point depend on the tooling")
        .check(classes);
  }
}
