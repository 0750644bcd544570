package io.bamel.power.tls;

import io.bamel.net.RedirectRefusedException;
import io.bamel.power.PowerException;
import io.bamel.power.TerminalPowerException;
import io.bamel.power.TransientPowerException;
import java.io.IOException;
import java.io.InterruptedIOException;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.SSLPeerUnverifiedException;

/** Turns the I/O failures of an HTTP call into typed {@link PowerException}s. */
public final class HttpFailures {

  private HttpFailures() {}

  /**
   * The failure for an {@link IOException} of a call to {@code target} (a URL without secrets): an
   * untrusted certificate and a refused redirect to another origin are terminal, everything else
   * (refused, reset, timed out) transient.
   */
  public static PowerException of(String target, IOException e) {
    if (e instanceof RedirectRefusedException) {
      // Following it would send bamel's request elsewhere: nothing to retry (OutboundPolicy).
      return new TerminalPowerException(
          PowerException.Reason.PROTOCOL, target + ": " + e.getMessage(), e);
    }
    if (e instanceof SSLPeerUnverifiedException
        || e instanceof SSLHandshakeException && isCertificateProblem(e)) {
      return new TerminalPowerException(
          PowerException.Reason.TLS,
          "TLS certificate of "
              + target
              + " is not trusted (give its CA bundle, pin its fingerprint, or opt in to insecure): "
              + rootMessage(e),
          e);
    }
    if (e instanceof SSLException) {
      return new TransientPowerException(
          PowerException.Reason.UNREACHABLE,
          "TLS failure talking to " + target + ": " + describe(e),
          e);
    }
    if (e instanceof InterruptedIOException) {
      return new TransientPowerException(
          PowerException.Reason.TIMEOUT, "no answer in time from " + target, e);
    }
    return new TransientPowerException(
        PowerException.Reason.UNREACHABLE, "cannot reach " + target + ": " + describe(e), e);
  }

  /**
   * What went wrong, in the exception's own words and without its class name ({@code unexpected end
   * of stream on ...}, {@code Connection refused}); a bare exception says "connection failed".
   */
  static String describe(Throwable e) {
    String message = e.getMessage();
    if (message == null || message.isBlank()) {
      message = e.getCause() != null ? e.getCause().getMessage() : null;
    }
    return message == null || message.isBlank() ? "connection failed" : message;
  }

  private static boolean isCertificateProblem(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof java.security.cert.CertificateException
          || t instanceof java.security.cert.CertPathValidatorException
          || t.getClass().getName().contains("CertPathBuilderException")) {
        return true;
      }
    }
    return false;
  }

  private static String rootMessage(Throwable e) {
    Throwable t = e;
    while (t.getCause() != null) {
      t = t.getCause();
    }
    return t.getMessage();
  }
}
