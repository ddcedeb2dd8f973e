package io.rubinbft.orderer.http;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/** Writes JSON answers the way Fabric's REST handlers do: compact JSON ending in a newline. */
public final class JsonResponses {

  private static final Gson GSON =
      new GsonBuilder().serializeNulls().disableHtmlEscaping().create();

  private JsonResponses() {}

  /** Sends {@code body} (a record, map or list) as JSON with {@code status}. */
  public static void send(HttpExchange exchange, int status, Object body) throws IOException {
    byte[] bytes = (GSON.toJson(body) + "\n").getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", "application/json");
    exchange.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }

  /** Sends Fabric's error shape, {@code {"error":"..."}}. */
  public static void error(HttpExchange exchange, int status, String message) throws IOException {
    send(exchange, status, Map.of("error", message));
  }

  /** Sends a status with no body (204, 405 without a message...). */
  public static void empty(HttpExchange exchange, int status) throws IOException {
    exchange.sendResponseHeaders(status, -1);
    exchange.close();
  }

  /** Parses a JSON request body into {@code type}; null when it is not valid JSON. */
  public static <T> @Nullable T parse(byte[] body, Class<T> type) {
    try {
      return GSON.fromJson(new String(body, StandardCharsets.UTF_8), type);
    } catch (RuntimeException e) {
      return null;
    }
  }
}
