package io.rubinbft.orderer;

import static com.tngtech.archunit.library.Architectures.layeredArchitecture;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * Rule 'stage-layers' (docs/ARCHITECTURE.md "Module rules"): the orderer's packages in layers, each
 * depending only on the ones below it, so the stages of the data path can be read, tested and
 * changed from the bottom up. 'no-package-cycles' ({@link PackageCyclesTest}) keeps the packages
 * free of cycles; this says which way the dependencies point. From the top:
 *
 * <ul>
 *   <li>launcher ({@code cli}) and tooling ({@code tools}, kept apart by 'runtime-without-tools');
 *   <li>node ({@code node}, {@code node.lifecycle}): wires a node and runs its channels;
 *   <li>lifecycle ({@code onboarding}, {@code participation}): followers, catching up, the
 *       participation API;
 *   <li>streams ({@code grpc}, {@code broadcast}, {@code deliver}): Broadcast and Deliver, which
 *       reach a channel only through the boundary, never the ordering or the node;
 *   <li>ordering ({@code consensus}, {@code cluster}): the replica host, the ledger writer, the
 *       replica network;
 *   <li>operations ({@code operations}, {@code metrics}): may read the ordering's counters;
 *   <li>boundary ({@code service}): the channels as the streams see them;
 *   <li>Fabric ({@code block}, {@code validation}, {@code configtx}, {@code channel}, {@code msp},
 *       {@code policy}, {@code client}): Fabric's formats, checks and rules, which know nothing of
 *       the runtime that uses them;
 *   <li>foundation ({@code crypto}, {@code config}, {@code memory}, {@code concurrent}, {@code
 *       files}, {@code http}, {@code tls}, {@code identity}): depends on no other layer.
 * </ul>
 *
 * Checked on the bytecode of the orderer's production classes.
 */
class StageLayersTest {

  private static final String ORDERER = "io.rubinbft.orderer.";

  @Test
  void ordererPackagesDependOnlyOnLayersBelow() {
    JavaClasses classes =
        new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.rubinbft.orderer");

    layeredArchitecture()
        .consideringOnlyDependenciesInLayers()
        .layer("launcher")
        .definedBy(packages("cli"))
        .layer("tooling")
        .definedBy(packages("tools"))
        .layer("node")
        .definedBy(packages("node"))
        .layer("lifecycle")
        .definedBy(packages("onboarding", "participation"))
        .layer("streams")
        .definedBy(packages("grpc", "broadcast", "deliver"))
        .layer("ordering")
        .definedBy(packages("consensus", "cluster"))
        .layer("operations")
        .definedBy(packages("operations", "metrics"))
        .layer("boundary")
        .definedBy(packages("service"))
        .layer("fabric")
        .definedBy(
            packages("block", "validation", "configtx", "channel", "msp", "policy", "client"))
        .layer("foundation")
        .definedBy(
            packages(
                "crypto", "config", "memory", "concurrent", "files", "http", "tls", "identity"))
        .whereLayer("launcher")
        .mayNotBeAccessedByAnyLayer()
        .whereLayer("node")
        .mayOnlyBeAccessedByLayers("launcher")
        .whereLayer("lifecycle")
        .mayOnlyBeAccessedByLayers("node", "launcher")
        .whereLayer("streams")
        .mayOnlyBeAccessedByLayers("node", "launcher")
        .whereLayer("ordering")
        .mayOnlyBeAccessedByLayers("node", "lifecycle", "operations", "launcher")
        .whereLayer("operations")
        .mayOnlyBeAccessedByLayers("node", "lifecycle", "streams", "launcher")
        .whereLayer("boundary")
        .mayOnlyBeAccessedByLayers("node", "lifecycle", "streams", "launcher")
        .whereLayer("fabric")
        .mayOnlyAccessLayers("foundation")
        .whereLayer("foundation")
        .mayNotAccessAnyLayer()
        .as(
            "rule 'stage-layers': the orderer's packages depend only on the layers below them"
                + " (docs/ARCHITECTURE.md)")
        .check(classes);
  }

  private static String[] packages(String... names) {
    String[] patterns = new String[names.length];
    for (int i = 0; i < names.length; i++) {
      patterns[i] = ORDERER + names[i] + "..";
    }
    return patterns;
  }
}
