package io.bamel.server.config;

/** The configuration is wrong; the message names the setting and what is expected. */
public final class ConfigException extends RuntimeException {

  /** A configuration error. */
  public ConfigException(String message) {
    super(message);
  }
}
