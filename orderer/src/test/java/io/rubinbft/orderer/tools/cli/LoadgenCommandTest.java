package io.rubinbft.orderer.tools.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rubinbft.orderer.tools.loadgen.SubmitMode;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** The load generator submits as Fabric's gateway does unless told to pipeline. */
class LoadgenCommandTest {

  private static final String[] REQUIRED = {
    "--orderer", "127.0.0.1:7050", "--channel", "ch", "--msp-dir", "/msp", "--msp-id", "Org1MSP"
  };

  @Test
  void gatewayIsTheDefaultMode() {
    assertThat(parse().mode).isEqualTo(SubmitMode.GATEWAY);
  }

  @Test
  void pipelinedIsChosenByName() {
    assertThat(parse("--mode", "pipelined").mode).isEqualTo(SubmitMode.PIPELINED);
  }

  @Test
  void anUnknownModeIsRefusedWithTheChoices() {
    assertThatThrownBy(() -> parse("--mode", "fast"))
        .isInstanceOf(CommandLine.ParameterException.class)
        .hasMessageContaining("'fast' is not a submit mode: gateway or pipelined");
  }

  private static LoadgenCommand parse(String... extra) {
    LoadgenCommand command = new LoadgenCommand();
    String[] args = new String[REQUIRED.length + extra.length];
    System.arraycopy(REQUIRED, 0, args, 0, REQUIRED.length);
    System.arraycopy(extra, 0, args, REQUIRED.length, extra.length);
    new CommandLine(command).parseArgs(args);
    return command;
  }
}
