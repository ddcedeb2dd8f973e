package io.rubinbft.orderer.metrics;

/** Reads one sample line of the text format token by token. */
final class Cursor {

  private final String line;
  private int position;

  Cursor(String line) {
    this.line = line;
  }

  boolean atEnd() {
    return position >= line.length();
  }

  /** The next character, or 0 at the end. */
  char peek() {
    return atEnd() ? 0 : line.charAt(position);
  }

  void next() {
    position++;
  }

  int column() {
    return position + 1;
  }

  String rest() {
    return line.substring(position);
  }

  void skipBlanks() {
    while (peek() == ' ' || peek() == '\t') {
      position++;
    }
  }

  void expect(char c) {
    if (peek() != c) {
      throw new IllegalArgumentException("expected '" + c + "' at column " + column());
    }
    position++;
  }

  /** A metric name, or with {@code label} a label name (no colons). */
  String name(boolean label) {
    int start = position;
    while (!atEnd() && isNameChar(peek(), position == start, label)) {
      position++;
    }
    if (position == start) {
      throw new IllegalArgumentException(
          "expected a " + (label ? "label" : "metric") + " name at column " + column());
    }
    return line.substring(start, position);
  }

  /** The text up to the next blank or the end. */
  String token() {
    int start = position;
    while (!atEnd() && peek() != ' ' && peek() != '\t') {
      position++;
    }
    if (position == start) {
      throw new IllegalArgumentException("expected a value at column " + column());
    }
    return line.substring(start, position);
  }

  /** A label value after its opening quote, unescaped; consumes the closing quote. */
  String quoted() {
    StringBuilder value = new StringBuilder();
    while (true) {
      if (atEnd()) {
        throw new IllegalArgumentException("label value not closed");
      }
      char c = line.charAt(position++);
      if (c == '"') {
        return value.toString();
      }
      if (c == '\\') {
        if (atEnd()) {
          throw new IllegalArgumentException("label value ends in a backslash");
        }
        char escaped = line.charAt(position++);
        switch (escaped) {
          case '\\', '"' -> value.append(escaped);
          case 'n' -> value.append('\n');
          default ->
              throw new IllegalArgumentException(
                  "unknown escape '\\" + escaped + "' at column " + position);
        }
      } else {
        value.append(c);
      }
    }
  }

  private static boolean isNameChar(char c, boolean first, boolean label) {
    boolean letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
    boolean colon = c == ':' && !label;
    return letter || colon || (!first && c >= '0' && c <= '9');
  }
}
