package io.rubinbft.orderer;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * Rule 'no-package-cycles' (docs/ARCHITECTURE.md): the orderer's packages depend on each other one
 * way, so a stage of the data path can be read, tested and changed without the ones that use it.
 * Checked on the bytecode of the orderer's production classes; each package is a slice.
 */
class PackageCyclesTest {

  @Test
  void ordererPackagesAreFreeOfCycles() {
    JavaClasses classes =
        new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.rubinbft.orderer");

    slices()
        .matching("io.rubinbft.orderer.(*)..")
        .should()
        .beFreeOfCycles()
        .as("rule 'no-package-cycles': the orderer's packages depend on each other one way")
        .check(classes);
  }
}
