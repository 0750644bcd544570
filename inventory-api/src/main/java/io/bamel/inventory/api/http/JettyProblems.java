package io.bamel.inventory.api.http;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.ByteBuffer;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.handler.ErrorHandler;

/**
 * Jetty's own error answers (a request Jetty rejects before the API sees it: an ambiguous or
 * malformed URI, headers too large) as RFC 9457 problems instead of HTML pages, without stack
 * traces.
 */
final class JettyProblems extends ErrorHandler {

  JettyProblems() {
    setShowStacks(false);
    setShowServlet(false);
  }

  @Override
  public void handle(
      String target, Request baseRequest, HttpServletRequest request, HttpServletResponse response)
      throws IOException {
    int status = response.getStatus() >= 400 ? response.getStatus() : 400;
    byte[] body = body(status);
    response.setStatus(status);
    response.setContentType(Problem.MEDIA_TYPE);
    response.setContentLength(body.length);
    response.getOutputStream().write(body);
    baseRequest.setHandled(true);
  }

  @Override
  public ByteBuffer badMessageError(int status, String reason, HttpFields.Mutable fields) {
    fields.put(HttpHeader.CONTENT_TYPE, Problem.MEDIA_TYPE);
    return ByteBuffer.wrap(body(status));
  }

  private static byte[] body(int status) {
    String title = HttpStatus.getMessage(status);
    return ApiJson.write(
        Problem.of(status, "http-" + status, title, "the request was rejected: " + title));
  }
}
