package io.bamel.inventory.api.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.eclipse.jetty.http.BadMessageException;
import org.junit.jupiter.api.Test;

class BodiesTest {

  /**
   * A request body as a loaded server sees it: the bytes arrive in the given pieces, and a read
   * call after the last piece fails with 408, as Jetty's minimum data rate check does when the
   * handler reads on after the whole body arrived but late (the rate is measured from the body's
   * first bytes to each read call, whatever the client did).
   */
  private static final class LateReader extends InputStream {
    private final byte[][] pieces;
    private int next;
    int calls;

    LateReader(byte[]... pieces) {
      this.pieces = pieces;
    }

    @Override
    public int read() {
      byte[] one = new byte[1];
      return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) {
      calls++;
      if (next == pieces.length) {
        throw new BadMessageException(408, "Request content data rate < 1024 B/s");
      }
      byte[] piece = pieces[next++];
      if (piece.length > len) {
        throw new AssertionError("asked for " + len + " bytes, the piece has " + piece.length);
      }
      System.arraycopy(piece, 0, b, off, piece.length);
      return piece.length;
    }
  }

  private static byte[] ascii(String s) {
    return s.getBytes(StandardCharsets.US_ASCII);
  }

  @Test
  void aDeclaredBodyIsReadWithNoCallAfterItsLastByte() throws Exception {
    LateReader in = new LateReader(ascii("{\"maxNodes\":8}"));
    assertThat(Bodies.readDeclared(in, 14)).isEqualTo(ascii("{\"maxNodes\":8}"));
    assertThat(in.calls).isEqualTo(1);
  }

  @Test
  void aDeclaredBodyArrivingInPiecesIsReadToItsDeclaredEnd() throws Exception {
    LateReader in = new LateReader(ascii("{\"a\""), ascii(":1"), ascii("}"));
    assertThat(Bodies.readDeclared(in, 7)).isEqualTo(ascii("{\"a\":1}"));
    assertThat(in.calls).isEqualTo(3);
  }

  @Test
  void aBodyEndingBeforeItsDeclaredLengthIs400() {
    InputStream in = new java.io.ByteArrayInputStream(ascii("{}"));
    assertThatThrownBy(() -> Bodies.readDeclared(in, 5))
        .isInstanceOfSatisfying(
            ApiException.class, e -> assertThat(e.problem().status()).isEqualTo(400));
  }

  @Test
  void theWholeDeclaredBodyIsReturnedWhateverItsSize() throws Exception {
    byte[] big = new byte[100_000];
    Arrays.fill(big, (byte) 'x');
    LateReader in =
        new LateReader(
            Arrays.copyOfRange(big, 0, 65_536), Arrays.copyOfRange(big, 65_536, 100_000));
    assertThat(Bodies.readDeclared(in, big.length)).isEqualTo(big);
  }
}
