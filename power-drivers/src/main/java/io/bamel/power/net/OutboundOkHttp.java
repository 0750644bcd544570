package io.bamel.power.net;

import io.bamel.net.OutboundPolicy;
import io.bamel.net.RedirectRefusedException;
import java.net.Proxy;
import okhttp3.Interceptor;
import okhttp3.OkHttpClient;
import okhttp3.Response;

/**
 * {@link OutboundPolicy} on an OkHttp client (the Redfish and Proxmox drivers): redirects never
 * followed (nor from http to https), no proxy, and an answer redirecting to another origin turned
 * into a {@link RedirectRefusedException} before the caller sees it.
 */
public final class OutboundOkHttp {

  private static final Interceptor CHECK_ANSWER =
      chain -> {
        Response response = chain.proceed(chain.request());
        try {
          OutboundPolicy.checkAnswer(
              chain.request().url().uri(), response.code(), response.header("Location"));
        } catch (RedirectRefusedException e) {
          response.close();
          throw e;
        }
        return response;
      };

  private OutboundOkHttp() {}

  /** {@code builder} with the policy applied. */
  public static OkHttpClient.Builder apply(OkHttpClient.Builder builder) {
    builder.interceptors().remove(CHECK_ANSWER);
    return builder
        .followRedirects(false)
        .followSslRedirects(false)
        .proxy(Proxy.NO_PROXY)
        .addInterceptor(CHECK_ANSWER);
  }
}
