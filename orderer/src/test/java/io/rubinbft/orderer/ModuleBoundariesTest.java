package io.rubinbft.orderer;

import static com.tngtech.archunit.library.Architectures.layeredArchitecture;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * Rule 'libraries-are-independent' (docs/ARCHITECTURE.md): dependencies point one way, {@code
 * orderer -> {bft-core, rdma-net, ledger}}. The three libraries depend neither on each other nor on
 * the orderer. Checked here on the bytecode of all four modules; Checkstyle's ImportControl checks
 * the same on imports before anything compiles.
 */
class ModuleBoundariesTest {

  @Test
  void librariesAreIndependent() {
    JavaClasses classes =
        new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.rubinbft");

    layeredArchitecture()
        .consideringOnlyDependenciesInLayers()
        .withOptionalLayers(true)
        .layer("orderer")
        .definedBy("io.rubinbft.orderer..")
        .layer("bft-core")
        .definedBy("io.rubinbft.bft..")
        .layer("rdma-net")
        .definedBy("io.rubinbft.net..")
        .layer("ledger")
        .definedBy("io.rubinbft.ledger..")
        .whereLayer("orderer")
        .mayNotBeAccessedByAnyLayer()
        .whereLayer("bft-core")
        .mayOnlyBeAccessedByLayers("orderer")
        .whereLayer("rdma-net")
        .mayOnlyBeAccessedByLayers("orderer")
        .whereLayer("ledger")
        .mayOnlyBeAccessedByLayers("orderer")
        .as(
            "rule 'libraries-are-independent': bft-core, rdma-net and ledger depend neither on"
                + " each other nor on orderer")
        .check(classes);
  }
}
