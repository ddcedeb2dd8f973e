package io.rubinbft.orderer;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaAccess;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import io.rubinbft.orderer.concurrent.Worker;
import io.rubinbft.orderer.deliver.DeliverSession;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Rule 'one-worker-abstraction' (docs/ARCHITECTURE.md): the node's long-lived threads are {@link
 * Worker}s (named, stopped with a deadline, their failure kept for {@code /healthz}); no other
 * class starts a thread by hand. Named exceptions, each a thread that is not a long-lived worker of
 * a component: the channel lifecycle's single-thread executor ({@code node.ChannelLifecycle}; its
 * one-shot catch-up tasks are {@link Worker}s, kept by {@code node.ChannelTasks}), the JVM's
 * shutdown hook ({@code cli.StartCommand}), one virtual thread per Deliver request ({@link
 * DeliverSession}) and per refused inbound message's close ({@code grpc.InboundMessageBudget}), and
 * the tooling ({@code io.rubinbft.orderer.tools}, not the node's runtime).
 */
class WorkerThreadsTest {

  private static final List<String> EXCEPTIONS =
      List.of(
          Worker.class.getName(),
          "io.rubinbft.orderer.node.ChannelLifecycle",
          "io.rubinbft.orderer.cli.StartCommand",
          DeliverSession.class.getName(),
          "io.rubinbft.orderer.grpc.InboundMessageBudget");

  private static final Set<String> STARTS = Set.of("ofPlatform", "ofVirtual", "startVirtualThread");

  @Test
  void onlyWorkersStartThreads() {
    JavaClasses classes =
        new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.rubinbft.orderer");

    noClasses()
        .that()
        .resideOutsideOfPackage("io.rubinbft.orderer.tools..")
        .and(not(namedExceptions()))
        .should()
        .accessTargetWhere(startsAThread())
        .as(
            "rule 'one-worker-abstraction': long-lived threads are concurrent.Worker's; only the"
                + " named exceptions start a thread by hand")
        .check(classes);
  }

  private static DescribedPredicate<JavaClass> namedExceptions() {
    return DescribedPredicate.describe(
        "the named exceptions",
        javaClass ->
            EXCEPTIONS.stream()
                .anyMatch(
                    name ->
                        javaClass.getName().equals(name)
                            || javaClass.getName().startsWith(name + "$")));
  }

  private static DescribedPredicate<JavaAccess<?>> startsAThread() {
    return DescribedPredicate.describe(
        "start a thread by hand (new Thread, Thread.ofPlatform, Thread.ofVirtual)",
        access ->
            access.getTargetOwner().isEquivalentTo(Thread.class)
                && (STARTS.contains(access.getName()) || access.getName().equals("<init>")));
  }
}
