package io.rubinbft.orderer.cli;

import io.rubinbft.orderer.tools.cli.BootstrapCommand;
import io.rubinbft.orderer.tools.cli.LoadgenCommand;
import io.rubinbft.orderer.tools.cli.LocalCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code rubin-orderer} command: one entry point, a subcommand per job. {@code start} runs the
 * node; {@code local}, {@code bootstrap} and {@code loadgen} are tooling from {@code
 * io.rubinbft.orderer.tools}, which only this class names (rule 'runtime-without-tools').
 */
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
