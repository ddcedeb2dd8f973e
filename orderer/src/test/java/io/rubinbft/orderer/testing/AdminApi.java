package io.rubinbft.orderer.testing;

import io.rubinbft.orderer.participation.ChannelInfo;
import io.rubinbft.orderer.participation.ParticipationHandler;
import io.rubinbft.orderer.tools.bootstrap.NetworkSummary;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.security.GeneralSecurityException;
import java.time.Duration;

/** The channel participation API as {@code osnadmin} calls it, over mutual TLS on loopback. */
public final class AdminApi {

  private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(15);

  private final HttpClient https;

  private AdminApi(HttpClient https) {
    this.https = https;
  }

  /** A client presenting {@code identity}'s TLS certificate and trusting its TLS CA. */
  public static AdminApi as(NetworkSummary.Identity identity)
      throws GeneralSecurityException, IOException {
    return new AdminApi(
        TlsClients.https(identity.tlsCaCert(), identity.tlsCert(), identity.tlsKey()));
  }

  /** Joins the node whose admin port is {@code port} with {@code configBlock}, as osnadmin does. */
  public HttpResponse<String> join(int port, byte[] configBlock)
      throws IOException, InterruptedException {
    return post(port, OsnadminForms.CONTENT_TYPE, OsnadminForms.form("config-block", configBlock));
  }

  /** {@code osnadmin channel update}: PUT of a CONFIG_UPDATE envelope. */
  public HttpResponse<String> update(int port, byte[] envelope)
      throws IOException, InterruptedException {
    return https.send(
        request(uri(port, ParticipationHandler.CHANNELS_PATH))
            .header("Content-Type", OsnadminForms.CONTENT_TYPE)
            .PUT(
                HttpRequest.BodyPublishers.ofByteArray(
                    OsnadminForms.form("config-update-envelope", envelope)))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  /** {@code osnadmin channel fetch}: GET of one block's bytes ({@code blockId}: n, newest, ...). */
  public HttpResponse<byte[]> fetch(int port, String channel, String blockId)
      throws IOException, InterruptedException {
    return https.send(
        request(uri(port, ChannelInfo.url(channel) + "/blocks/" + blockId)).GET().build(),
        HttpResponse.BodyHandlers.ofByteArray());
  }

  /** POSTs {@code body} as it is to the channels resource. */
  public HttpResponse<String> post(int port, String contentType, byte[] body)
      throws IOException, InterruptedException {
    return https.send(
        request(uri(port, ParticipationHandler.CHANNELS_PATH))
            .header("Content-Type", contentType)
            .POST(HttpRequest.BodyPublishers.ofByteArray(body))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  /** GETs the channel list. */
  public HttpResponse<String> list(int port) throws IOException, InterruptedException {
    return get(port, ParticipationHandler.CHANNELS_PATH);
  }

  /** GETs one channel's info. */
  public HttpResponse<String> info(int port, String channel)
      throws IOException, InterruptedException {
    return get(port, ChannelInfo.url(channel));
  }

  /** {@code osnadmin channel remove}: DELETE of one channel. */
  public HttpResponse<String> remove(int port, String channel)
      throws IOException, InterruptedException {
    return https.send(
        request(uri(port, ChannelInfo.url(channel))).DELETE().build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private HttpResponse<String> get(int port, String path) throws IOException, InterruptedException {
    return https.send(request(uri(port, path)).GET().build(), HttpResponse.BodyHandlers.ofString());
  }

  private static URI uri(int port, String path) {
    return URI.create("https://localhost:" + port + path);
  }

  /**
   * A request that gives up after {@link #REQUEST_TIMEOUT}: a node stopped with kill -STOP (or one
   * that was, on a connection made before) answers nothing, and a call without a deadline would
   * hold up every check that asks the nodes in turn.
   */
  private static HttpRequest.Builder request(URI uri) {
    return HttpRequest.newBuilder(uri).timeout(REQUEST_TIMEOUT);
  }
}
