package io.rubinbft.orderer.participation;

import static io.rubinbft.orderer.testing.OsnadminForms.CONTENT_TYPE;
import static io.rubinbft.orderer.testing.OsnadminForms.form;
import static org.assertj.core.api.Assertions.assertThat;

import io.rubinbft.orderer.channel.ConfigBlockReader;
import io.rubinbft.orderer.channel.InvalidConfigException;
import io.rubinbft.orderer.config.HostPort;
import io.rubinbft.orderer.config.TlsSettings;
import io.rubinbft.orderer.http.HttpListener;
import io.rubinbft.orderer.http.MultipartForm;
import io.rubinbft.orderer.testing.FabricFixtures;
import io.rubinbft.testdata.fuzz.Fuzzer;
import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;
import java.util.random.RandomGenerator;
import org.junit.jupiter.api.Test;

/**
 * Fuzzing of what an admin client sends to the channel participation API (README "Fuzzing"): the
 * multipart form of a join or update request, the config block a join carries (read as the node
 * reads it before joining), and requests of any method on any path. The form parser returns the
 * parts or an {@link IllegalArgumentException} (400), the block reader a config or an {@link
 * InvalidConfigException} (400), and the handler answers every request below 500.
 */
class AdminRequestFuzzTest {

  private static final long MAX_BODY_BYTES = 1 << 20;

  @Test
  void formsAreReadOrRefusedWithTheReason() throws IOException {
    List<byte[]> samples =
        List.of(
            form("config-block", "block".getBytes(StandardCharsets.US_ASCII)),
            form("config-update-envelope", new byte[300]),
            form("config-block", genesisBlock()));
    Fuzzer.of("orderer admin multipart form", samples)
        .inputs(2_000)
        .allocationLimit(1 << 20, 64)
        .run(
            (bytes, random) -> {
              try {
                MultipartForm.read(
                    contentType(random), new ByteArrayInputStream(bytes), MAX_BODY_BYTES);
                return true;
              } catch (IllegalArgumentException e) {
                return false;
              }
            });
  }

  @Test
  void joinBlocksAreReadOrRefusedWithTheReason() throws Exception {
    assertThat(ConfigBlockReader.read(genesisBlock()).channelId()).isEqualTo("fixture");
    Fuzzer.of("orderer join config block", List.of(genesisBlock()))
        .inputs(1_000)
        .run(
            (bytes, random) -> {
              try {
                ConfigBlockReader.read(bytes);
                return true;
              } catch (InvalidConfigException e) {
                return false;
              }
            });
  }

  /**
   * Any method on any path under the API's root, on a fresh connection each (as a stranger's script
   * would): answered, and below 500. The body of a POST or PUT is a small form; joining with a real
   * block is the other targets' business.
   */
  @Test
  void everyRequestIsAnsweredBelow500() throws IOException {
    HttpListener listener =
        HttpListener.bind(new HostPort("127.0.0.1", 0), TlsSettings.plaintext(), "admin-fuzz");
    listener
        .server()
        .createContext(
            ParticipationHandler.CHANNELS_PATH,
            new ParticipationHandler(new ChannelTable(), MAX_BODY_BYTES));
    listener.start();
    byte[] form = form("config-block", bytes("block"));
    List<byte[]> paths =
        List.of(
            bytes(""),
            bytes("/"),
            bytes("/fixture"),
            bytes("/fixture/blocks/newest"),
            bytes("/fixture/blocks/oldest"),
            bytes("/fixture/blocks/3"),
            bytes("/fixture/blocks/18446744073709551615"));
    try {
      Fuzzer.of("orderer admin REST paths", paths)
          .inputs(500)
          .run(
              (bytes, random) -> {
                String method = METHODS.get(random.nextInt(METHODS.size()));
                boolean withBody = method.equals("POST") || method.equals("PUT");
                String target = ParticipationHandler.CHANNELS_PATH + percentEncoded(bytes);
                int status = send(listener, method, target, withBody ? form : new byte[0]);
                assertThat(status).as("%s %s", method, target).isBetween(200, 499);
                return status < 300;
              });
    } finally {
      listener.close();
    }
  }

  /** One HTTP/1.1 request on its own connection; returns the response's status code. */
  private static int send(HttpListener listener, String method, String target, byte[] body)
      throws IOException {
    try (Socket socket =
        new Socket(InetAddress.getLoopbackAddress(), listener.address().getPort())) {
      socket.setSoTimeout(10_000);
      OutputStream out = socket.getOutputStream();
      out.write(
          (method
                  + " "
                  + target
                  + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Type: "
                  + CONTENT_TYPE
                  + "\r\nContent-Length: "
                  + body.length
                  + "\r\n\r\n")
              .getBytes(StandardCharsets.US_ASCII));
      out.write(body);
      out.flush();
      String statusLine =
          new BufferedReader(
                  new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII))
              .readLine();
      if (statusLine == null || !statusLine.startsWith("HTTP/1.1 ")) {
        throw new AssertionError("no answer to " + method + " " + target + ": " + statusLine);
      }
      return Integer.parseInt(statusLine.substring(9, 12));
    }
  }

  private static final List<String> METHODS =
      List.of("GET", "GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE");

  /** Mostly the right Content-Type; sometimes one with a mutated boundary or media type. */
  private static String contentType(RandomGenerator random) {
    if (random.nextInt(4) != 0) {
      return CONTENT_TYPE;
    }
    byte[] bytes = CONTENT_TYPE.getBytes(StandardCharsets.ISO_8859_1);
    int changes = 1 + random.nextInt(4);
    for (int i = 0; i < changes; i++) {
      bytes[random.nextInt(bytes.length)] = (byte) random.nextInt(0x20, 0x7F);
    }
    return new String(bytes, StandardCharsets.ISO_8859_1);
  }

  /** Every byte but unreserved ones and '/' as %XX: any byte string makes a valid URI path. */
  private static String percentEncoded(byte[] path) {
    StringBuilder encoded = new StringBuilder();
    for (byte b : path) {
      char c = (char) (b & 0xFF);
      if ((c >= 'a' && c <= 'z')
          || (c >= 'A' && c <= 'Z')
          || (c >= '0' && c <= '9')
          || "-._~/".indexOf(c) >= 0) {
        encoded.append(c);
      } else {
        encoded.append(String.format("%%%02X", b & 0xFF));
      }
    }
    return encoded.toString();
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.US_ASCII);
  }

  private static byte[] genesisBlock() throws IOException {
    return Files.readAllBytes(FabricFixtures.root().resolve("bft-genesis.block"));
  }
}
