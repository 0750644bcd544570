package io.bamel.server.console;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.Supplier;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebDriverException;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * A headless Chromium driven by Selenium for the console's browser tests: Debian's {@code chromium}
 * and {@code chromium-driver} ({@code scripts/ensure-deps.sh} installs them), named explicitly, so
 * Selenium Manager is never asked for a browser or a driver and nothing is downloaded. The paths
 * can be changed with the system properties {@code bamel.chromium} and {@code bamel.chromedriver}.
 */
final class Browser implements AutoCloseable {

  static final Path CHROMIUM = Path.of(System.getProperty("bamel.chromium", "/usr/bin/chromium"));
  static final Path DRIVER =
      Path.of(System.getProperty("bamel.chromedriver", "/usr/bin/chromedriver"));

  final ChromeDriver driver;

  private Browser(ChromeDriver driver) {
    this.driver = driver;
  }

  /** Starts a browser with a fresh profile and a window of {@code width} x {@code height}. */
  static Browser start(int width, int height) {
    for (Path p : new Path[] {CHROMIUM, DRIVER}) {
      if (!Files.isExecutable(p)) {
        throw new IllegalStateException(
            p + " is missing: install chromium and chromium-driver (scripts/ensure-deps.sh)");
      }
    }
    // A driver named here (and in the service) makes Selenium skip Selenium Manager.
    System.setProperty("webdriver.chrome.driver", DRIVER.toString());
    ChromeOptions options = new ChromeOptions();
    options.setBinary(CHROMIUM.toFile());
    options.addArguments(
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--no-first-run",
        "--disable-extensions",
        "--disable-sync",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-default-apps",
        "--force-device-scale-factor=1",
        "--window-size=" + width + "," + height);
    options.setCapability("goog:loggingPrefs", java.util.Map.of("browser", "ALL"));
    ChromeDriverService service =
        new ChromeDriverService.Builder()
            .usingDriverExecutable(DRIVER.toFile())
            .usingAnyFreePort()
            .build();
    return new Browser(new ChromeDriver(service, options));
  }

  /** Runs a script in the page and returns its value. */
  Object js(String script, Object... args) {
    return ((JavascriptExecutor) driver).executeScript(script, args);
  }

  /** Runs an asynchronous script (its last argument is the callback) and returns its value. */
  Object jsAsync(String script, Object... args) {
    return ((JavascriptExecutor) driver).executeAsyncScript(script, args);
  }

  /** Waits until {@code condition} holds (evaluated every 100 ms), or fails naming {@code what}. */
  void await(String what, Duration timeout, Supplier<Boolean> condition) {
    long deadline = System.nanoTime() + timeout.toNanos();
    RuntimeException last = null;
    while (System.nanoTime() < deadline) {
      try {
        if (Boolean.TRUE.equals(condition.get())) {
          return;
        }
      } catch (WebDriverException e) {
        last = e; // an element replaced while being read: try again
      }
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
    }
    throw new AssertionError(
        "timed out after " + timeout + " waiting for " + what + "; the page showed: " + shown(),
        last);
  }

  /** What the page shows (its URL and the start of its text), to say where a wait got stuck. */
  private String shown() {
    try {
      String text = driver.findElement(By.tagName("body")).getText().replaceAll("\\s+", " ");
      return driver.getCurrentUrl()
          + " \""
          + text.substring(0, Math.min(400, text.length()))
          + "\"";
    } catch (WebDriverException e) {
      return "(unreadable: " + e.getClass().getSimpleName() + ")";
    }
  }

  /**
   * The page's console messages of level SEVERE since the last call, except failed network requests
   * (which a test that cuts the network causes on purpose).
   */
  java.util.List<String> consoleErrors() {
    return driver.manage().logs().get(org.openqa.selenium.logging.LogType.BROWSER).getAll().stream()
        .filter(e -> e.getLevel().intValue() >= java.util.logging.Level.SEVERE.intValue())
        .map(org.openqa.selenium.logging.LogEntry::getMessage)
        .filter(m -> !m.contains("net::ERR_") && !m.contains("Failed to load resource"))
        .toList();
  }

  /** A PNG of the window. */
  byte[] screenshot() {
    return driver.getScreenshotAs(OutputType.BYTES);
  }

  @Override
  public void close() {
    driver.quit();
  }
}
