package io.bamel.inventory.api.http;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class AcceptEncodingTest {

  private static final int BIG = ListingResponse.GZIP_FROM;
  private static final int SMALL = ListingResponse.GZIP_FROM - 1;

  @ParameterizedTest(name = "[{0}] {1} bytes -> {2}")
  @CsvSource(
      delimiter = '|',
      nullValues = "NONE",
      value = {
        // header | size | coding (NONE: 406)
        "NONE | BIG | identity",
        "'' | BIG | identity",
        "gzip | BIG | gzip",
        "GZip | BIG | gzip",
        "x-gzip | BIG | gzip",
        "gzip, deflate, br | BIG | gzip",
        "gzip | SMALL | identity",
        "gzip;q=0 | BIG | identity",
        "gzip; q=0.000 | BIG | identity",
        "gzip;q=0.5, identity;q=0.8 | BIG | identity",
        "gzip;q=0.8, identity;q=0.5 | BIG | gzip",
        "gzip;q=0.5, identity;q=0.5 | BIG | gzip",
        "gzip, identity;q=0 | BIG | gzip",
        "gzip, identity;q=0 | SMALL | gzip",
        "identity;q=0 | BIG | NONE",
        "*;q=0 | BIG | NONE",
        "*;q=0, identity | BIG | identity",
        "*;q=0, gzip | SMALL | gzip",
        "* | BIG | gzip",
        "*;q=0.1, identity;q=0 | SMALL | gzip",
        "gzip;q=0, identity;q=0 | BIG | NONE",
        "br | BIG | identity",
        "gzip;q=2 | BIG | identity",
        "gzip;q=abc | BIG | identity",
        "gzip;q=0.0001 | BIG | identity",
        "gzip;level=9 | BIG | gzip",
      })
  void picksTheCodingTheClientAccepts(String header, String size, String expected) {
    int bytes = size.equals("BIG") ? BIG : SMALL;
    assertThat(AcceptEncoding.parse(header).choose(bytes, ListingResponse.GZIP_FROM))
        .isEqualTo(expected);
  }
}
