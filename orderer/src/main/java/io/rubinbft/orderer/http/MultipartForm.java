package io.rubinbft.orderer.http;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.apache.commons.fileupload2.core.MultipartInput;
import org.apache.commons.fileupload2.core.ParameterParser;
import org.jspecify.annotations.Nullable;

/**
 * The parts of a {@code multipart/form-data} request body by name (what {@code osnadmin} sends),
 * read with a hard limit on the body's size.
 */
public final class MultipartForm {

  private MultipartForm() {}

  /**
   * Reads every part of {@code body}.
   *
   * @param contentType the request's Content-Type header (must carry a boundary)
   * @param maxBodyBytes the largest body accepted
   * @throws IllegalArgumentException saying what is wrong with the request
   */
  public static Map<String, byte[]> read(String contentType, InputStream body, long maxBodyBytes)
      throws IOException {
    byte[] boundary = boundary(contentType);
    byte[] bytes = body.readNBytes((int) Math.min(Integer.MAX_VALUE - 8, maxBodyBytes + 1));
    if (bytes.length > maxBodyBytes) {
      throw new IllegalArgumentException(
          "cannot read form from request body: request body exceeds " + maxBodyBytes + " bytes");
    }
    try {
      return parts(bytes, boundary);
    } catch (IOException e) {
      throw new IllegalArgumentException(
          "cannot read form from request body: " + e.getMessage(), e);
    }
  }

  private static Map<String, byte[]> parts(byte[] body, byte[] boundary) throws IOException {
    MultipartInput input =
        MultipartInput.builder()
            .setInputStream(new ByteArrayInputStream(body))
            .setBoundary(boundary)
            .get();
    Map<String, byte[]> parts = new LinkedHashMap<>();
    boolean more = input.skipPreamble();
    while (more) {
      String name = partName(input.readHeaders());
      ByteArrayOutputStream content = new ByteArrayOutputStream();
      input.readBodyData(content);
      if (name != null) {
        parts.put(name, content.toByteArray());
      }
      more = input.readBoundary();
    }
    return parts;
  }

  private static byte[] boundary(String contentType) {
    if (contentType == null
        || !contentType.toLowerCase(Locale.ROOT).startsWith("multipart/form-data")) {
      throw new IllegalArgumentException(
          "request Content-Type is '" + contentType + "' but must be multipart/form-data");
    }
    ParameterParser parser = new ParameterParser();
    parser.setLowerCaseNames(true);
    String boundary = parser.parse(contentType, new char[] {';', ','}).get("boundary");
    if (boundary == null || boundary.isEmpty()) {
      throw new IllegalArgumentException("multipart/form-data Content-Type has no boundary");
    }
    return boundary.getBytes(StandardCharsets.ISO_8859_1);
  }

  /** The {@code name} of a part's Content-Disposition header, or null when it has none. */
  private static @Nullable String partName(String headers) {
    for (String line : headers.split("\r\n", 0)) {
      int colon = line.indexOf(':');
      if (colon > 0 && line.substring(0, colon).trim().equalsIgnoreCase("Content-Disposition")) {
        ParameterParser parser = new ParameterParser();
        parser.setLowerCaseNames(true);
        return parser.parse(line.substring(colon + 1), ';').get("name");
      }
    }
    return null;
  }
}
