package io.rubinbft.orderer.tools.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class BootstrapCommandTest {

  @TempDir Path dir;

  @Test
  void generatesThenKeepsAndPrintsWhatIsWhere() {
    Run first = run("--out", dir.toString(), "--channel", "bench", "--nodes", "4");
    assertThat(first.status()).isZero();
    assertThat(first.out())
        .contains("Generated a BFT network for channel 'bench' (4 consenters)")
        .contains(dir.resolve("genesis/bench.block").toString())
        .contains("consenter 4  orderer4.example.com")
        .contains("broadcast 127.0.0.1:7053  cluster 7153  admin 7253  operations 8446");
    assertThat(dir.resolve("network.yaml")).exists();

    Run second = run("--out", dir.toString(), "--channel", "bench", "--nodes", "4");
    assertThat(second.status()).isZero();
    assertThat(second.out()).contains("Kept the existing BFT network for channel 'bench'");
  }

  @Test
  void reportsABadRequestInOneLineWithStatus1() throws Exception {
    Run run = run("--out", dir.toString(), "--nodes", "0");
    assertThat(run.status()).isEqualTo(1);
    assertThat(run.err().strip()).isEqualTo("bootstrap: node count is 0 but must be in 1..64");
    try (var files = Files.list(dir)) {
      assertThat(files).isEmpty();
    }
  }

  private record Run(int status, String out, String err) {}

  private static Run run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine command = BootstrapCommand.commandLine();
    command.setOut(new PrintWriter(out));
    command.setErr(new PrintWriter(err));
    int status = command.execute(args);
    return new Run(status, out.toString(), err.toString());
  }
}
