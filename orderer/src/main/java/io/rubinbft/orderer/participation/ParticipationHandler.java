package io.rubinbft.orderer.participation;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import io.rubinbft.orderer.channel.ChannelIds;
import io.rubinbft.orderer.http.JsonResponses;
import io.rubinbft.orderer.http.MultipartForm;
import java.io.IOException;
import java.io.OutputStream;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.hyperledger.fabric.protos.common.Block;
import org.hyperledger.fabric.protos.common.Envelope;

/**
 * The channel participation REST API as {@code osnadmin} uses it, with Fabric's paths, JSON shapes,
 * status codes and headers (recorded in testdata/fabric/participation/).
 */
public final class ParticipationHandler implements HttpHandler {

  public static final String CHANNELS_PATH = "/participation/v1/channels";
  static final String CONFIG_BLOCK_PART = "config-block";
  static final String CONFIG_UPDATE_PART = "config-update-envelope";
  private static final String BLOCKS = "blocks";

  private final ChannelParticipation channels;
  private final long maxRequestBodyBytes;

  public ParticipationHandler(ChannelParticipation channels, long maxRequestBodyBytes) {
    this.channels = channels;
    this.maxRequestBodyBytes = maxRequestBodyBytes;
  }

  @Override
  public void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      exchange.getResponseHeaders().set("X-Request-Id", UUID.randomUUID().toString());
      String path = exchange.getRequestURI().getPath();
      if (path.equals(CHANNELS_PATH) || path.equals(CHANNELS_PATH + "/")) {
        serveChannels(exchange);
      } else if (path.startsWith(CHANNELS_PATH + "/")
          && path.indexOf('/', CHANNELS_PATH.length() + 1) < 0) {
        serveChannel(exchange, path.substring(CHANNELS_PATH.length() + 1));
      } else if (isBlockPath(path)) {
        String[] parts = path.substring(CHANNELS_PATH.length() + 1).split("/", -1);
        serveBlock(exchange, parts[0], parts[2]);
      } else {
        JsonResponses.error(exchange, 404, "no such resource: " + path);
      }
    }
  }

  private void serveChannels(HttpExchange exchange) throws IOException {
    switch (exchange.getRequestMethod()) {
      case "GET" -> list(exchange);
      case "POST" -> join(exchange);
      case "PUT" -> update(exchange);
      default -> methodNotAllowed(exchange, "GET, POST, PUT");
    }
  }

  private void serveChannel(HttpExchange exchange, String channel) throws IOException {
    Optional<String> invalid = ChannelIds.invalidReason(channel);
    if (invalid.isPresent()) {
      JsonResponses.error(exchange, 400, "invalid channel ID: " + invalid.get());
      return;
    }
    switch (exchange.getRequestMethod()) {
      case "GET" -> info(exchange, channel);
      case "DELETE" -> remove(exchange, channel);
      default -> methodNotAllowed(exchange, "GET, DELETE");
    }
  }

  /** {@code /participation/v1/channels/{ch}/blocks/{id}}. */
  private static boolean isBlockPath(String path) {
    if (!path.startsWith(CHANNELS_PATH + "/")) {
      return false;
    }
    String[] parts = path.substring(CHANNELS_PATH.length() + 1).split("/", -1);
    return parts.length == 3 && parts[1].equals(BLOCKS) && !parts[2].isEmpty();
  }

  /** {@code osnadmin channel fetch}: the block's bytes as {@code application/octet-stream}. */
  private void serveBlock(HttpExchange exchange, String channel, String id) throws IOException {
    if (!exchange.getRequestMethod().equals("GET")) {
      methodNotAllowed(exchange, "GET, DELETE");
      return;
    }
    Optional<String> invalid = ChannelIds.invalidReason(channel);
    if (invalid.isPresent()) {
      JsonResponses.error(exchange, 400, "invalid channel ID: " + invalid.get());
      return;
    }
    BlockId blockId;
    try {
      blockId = BlockId.parse(id);
    } catch (IllegalArgumentException e) {
      JsonResponses.error(exchange, 400, "invalid block ID: " + e.getMessage());
      return;
    }
    ByteString block;
    try {
      block = channels.block(channel, blockId);
    } catch (ParticipationException e) {
      JsonResponses.error(exchange, e.reason().httpStatus(), String.valueOf(e.getMessage()));
      return;
    }
    noStore(exchange);
    exchange.getResponseHeaders().set("Content-Type", "application/octet-stream");
    exchange.sendResponseHeaders(200, block.size());
    try (OutputStream out = exchange.getResponseBody()) {
      block.writeTo(out);
    }
  }

  /** One entry of the channel list, in Fabric's field order. */
  private record ChannelEntry(String name, String url) {}

  private void list(HttpExchange exchange) throws IOException {
    List<ChannelEntry> entries =
        channels.channelNames().stream()
            .map(name -> new ChannelEntry(name, ChannelInfo.url(name)))
            .toList();
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("systemChannel", null);
    // Fabric answers null, not [], when there is no channel.
    body.put("channels", entries.isEmpty() ? null : entries);
    noStore(exchange);
    JsonResponses.send(exchange, 200, body);
  }

  private void info(HttpExchange exchange, String channel) throws IOException {
    Optional<ChannelInfo> info = channels.info(channel);
    if (info.isEmpty()) {
      JsonResponses.error(exchange, 404, "channel does not exist");
      return;
    }
    noStore(exchange);
    JsonResponses.send(exchange, 200, info.get());
  }

  private void join(HttpExchange exchange) throws IOException {
    byte[] blockBytes;
    Block block;
    try {
      blockBytes = joinBlockBytes(exchange);
      block = parseBlock(blockBytes);
    } catch (IllegalArgumentException e) {
      JsonResponses.error(exchange, 400, String.valueOf(e.getMessage()));
      return;
    }
    try {
      created(exchange, channels.join(block, blockBytes));
    } catch (ParticipationException e) {
      if (e.reason() == ParticipationException.Reason.ALREADY_EXISTS) {
        exchange.getResponseHeaders().set("Allow", "GET, DELETE");
      }
      JsonResponses.error(exchange, e.reason().httpStatus(), "cannot join: " + e.getMessage());
    }
  }

  /** Fabric's answer to a join or an update: 201, the channel's info and its URL. */
  private static void created(HttpExchange exchange, ChannelInfo info) throws IOException {
    exchange.getResponseHeaders().set("Location", info.url());
    JsonResponses.send(exchange, 201, info);
  }

  private byte[] joinBlockBytes(HttpExchange exchange) throws IOException {
    return onlyPart(exchange, CONFIG_BLOCK_PART);
  }

  /** The form's one part, {@code name}, as Fabric's handlers require it. */
  private byte[] onlyPart(HttpExchange exchange, String name) throws IOException {
    Map<String, byte[]> parts =
        MultipartForm.read(
            exchange.getRequestHeaders().getFirst("Content-Type"),
            exchange.getRequestBody(),
            maxRequestBodyBytes);
    if (!parts.containsKey(name)) {
      throw new IllegalArgumentException("form does not contains part key: " + name);
    }
    if (parts.size() != 1) {
      throw new IllegalArgumentException("form contains too many parts");
    }
    return parts.get(name);
  }

  /**
   * {@code osnadmin channel update}: a CONFIG_UPDATE envelope to order on the channel its
   * ConfigUpdate names; 201 with the channel info once it is in the request pool.
   */
  private void update(HttpExchange exchange) throws IOException {
    Envelope envelope;
    String channel;
    try {
      byte[] bytes = onlyPart(exchange, CONFIG_UPDATE_PART);
      envelope = parseEnvelope(bytes);
      channel = UpdateEnvelopes.channelId(envelope);
    } catch (IllegalArgumentException e) {
      JsonResponses.error(exchange, 400, String.valueOf(e.getMessage()));
      return;
    }
    try {
      created(exchange, channels.update(channel, envelope));
    } catch (ParticipationException e) {
      JsonResponses.error(exchange, e.reason().httpStatus(), "cannot update: " + e.getMessage());
    }
  }

  private static Envelope parseEnvelope(byte[] bytes) {
    try {
      return Envelope.parseFrom(bytes);
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalArgumentException(
          "cannot unmarshal file part "
              + CONFIG_UPDATE_PART
              + " into an envelope: "
              + e.getMessage());
    }
  }

  private static Block parseBlock(byte[] bytes) {
    try {
      return Block.parseFrom(bytes);
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalArgumentException(
          "cannot unmarshal file part " + CONFIG_BLOCK_PART + " into a block: " + e.getMessage());
    }
  }

  private void remove(HttpExchange exchange, String channel) throws IOException {
    try {
      channels.remove(channel);
      JsonResponses.empty(exchange, 204);
    } catch (ParticipationException e) {
      JsonResponses.error(exchange, e.reason().httpStatus(), "cannot remove: " + e.getMessage());
    }
  }

  private static void methodNotAllowed(HttpExchange exchange, String allowed) throws IOException {
    exchange.getResponseHeaders().set("Allow", allowed);
    JsonResponses.error(exchange, 405, "invalid request method: " + exchange.getRequestMethod());
  }

  private static void noStore(HttpExchange exchange) {
    exchange.getResponseHeaders().set("Cache-Control", "no-store");
  }
}
