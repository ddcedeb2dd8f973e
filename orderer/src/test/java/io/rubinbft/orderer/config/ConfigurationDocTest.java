package io.rubinbft.orderer.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** docs/CONFIGURATION.md documents every setting under its key and environment variable. */
class ConfigurationDocTest {

  @Test
  void everySettingIsDocumented() throws IOException {
    String doc = Files.readString(Path.of("docs/CONFIGURATION.md"));
    for (Setting setting : Settings.ALL) {
      assertThat(doc)
          .contains("| `" + setting.key() + "` | `" + setting.environmentVariable() + "` |");
    }
  }
}
