package io.rubinbft.bft;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * docs/ARCHITECTURE.md principle 1: bft-core's protocol is a deterministic state machine. Time
 * arrives as ticks, randomness from a seeded generator in the config; no threads, clocks, sockets
 * or files.
 */
class ProtocolPurityTest {

  private static JavaClasses protocol;

  @BeforeAll
  static void importProtocolClasses() {
    protocol =
        new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.rubinbft.bft");
  }

  @Test
  void noThreadsOrLocks() {
    check(
        noClasses()
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage("java.util.concurrent..")
            .orShould()
            .dependOnClassesThat()
            .areAssignableTo(Thread.class)
            .orShould()
            .dependOnClassesThat()
            .areAssignableTo(Runnable.class)
            .as(
                "rule 'protocol-is-single-threaded': bft-core uses no threads, executors or locks"));
  }

  @Test
  void noClocks() {
    check(
        noClasses()
            .should()
            .callMethod(System.class, "currentTimeMillis")
            .orShould()
            .callMethod(System.class, "nanoTime")
            .orShould()
            .dependOnClassesThat()
            .resideInAnyPackage("java.time..")
            .as("rule 'time-arrives-as-ticks': bft-core reads no clock"));
  }

  @Test
  void noSocketsOrFiles() {
    check(
        noClasses()
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage("java.net..", "java.nio.channels..", "java.nio.file..")
            .orShould()
            .dependOnClassesThat()
            .haveNameMatching("java\\.io\\.(File.*|RandomAccessFile)")
            .as("rule 'no-io-in-protocol': bft-core opens no sockets or files"));
  }

  @Test
  void noUnseededRandomness() {
    check(
        noClasses()
            .should()
            .callConstructor(java.util.Random.class)
            .orShould()
            .callMethod(Math.class, "random")
            .orShould()
            .dependOnClassesThat()
            .haveFullyQualifiedName("java.security.SecureRandom")
            .as("rule 'seeded-randomness-only': bft-core draws only from a seeded generator"));
  }

  private static void check(ArchRule rule) {
    rule.allowEmptyShould(false).check(protocol);
  }
}
