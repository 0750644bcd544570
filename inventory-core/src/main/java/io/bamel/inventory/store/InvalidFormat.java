package io.bamel.inventory.store;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import java.io.IOException;

/** Builds Jackson's format error for a value that is not what a field expects. */
final class InvalidFormat {

  private InvalidFormat() {}

  static InvalidFormatException of(JsonParser p, String expected) throws IOException {
    return InvalidFormatException.from(p, "expected " + expected, p.getText(), String.class);
  }
}
