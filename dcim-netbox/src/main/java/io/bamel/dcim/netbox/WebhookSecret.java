package io.bamel.dcim.netbox;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The secret NetBox signs its webhooks with (the webhook's {@code Secret}), read from a file
 * ({@code netbox.webhookSecretFile}: the secret alone, surrounding white space ignored). Never
 * shown: {@link #toString()} says only that it is set.
 */
public final class WebhookSecret {

  private final byte[] key;

  private WebhookSecret(byte[] key) {
    this.key = key;
  }

  /**
   * The secret in {@code file}.
   *
   * @throws IllegalArgumentException naming the file (never its content) when it cannot be read or
   *     is empty
   */
  public static WebhookSecret read(Path file) {
    try {
      return of(Files.readString(file, StandardCharsets.UTF_8), file.toString());
    } catch (IOException e) {
      throw new IllegalArgumentException("cannot read the webhook secret file " + file, e);
    }
  }

  /**
   * The secret {@code text}; {@code source} names it in the error.
   *
   * @throws IllegalArgumentException when it is empty
   */
  public static WebhookSecret of(String text, String source) {
    String s = text.strip();
    if (s.isEmpty()) {
      throw new IllegalArgumentException(source + " is empty: it must hold the webhook's secret");
    }
    return new WebhookSecret(s.getBytes(StandardCharsets.UTF_8));
  }

  /** The key bytes (NetBox encodes the secret as UTF-8). */
  byte[] key() {
    return key.clone();
  }

  @Override
  public String toString() {
    return "webhook secret (set)";
  }
}
