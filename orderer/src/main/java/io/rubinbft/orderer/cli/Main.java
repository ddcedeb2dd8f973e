package io.rubinbft.orderer.cli;

import io.rubinbft.orderer.bootstrap.cli.BootstrapCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code rubin-orderer} command: one entry point, a subcommand per job. */
@Command(
    name = "rubin-orderer",
    mixinStandardHelpOptions = true,
    description = "A Byzantine-fault-tolerant ordering service for Hyperledger Fabric.",
    subcommands = {
      StartCommand.class,
      LocalCommand.class,
      BootstrapCommand.class,
      LoadgenCommand.class
    })
public final class Main {

  private Main() {}

  public static void main(String[] args) {
    System.exit(new CommandLine(new Main()).execute(args));
  }
}
