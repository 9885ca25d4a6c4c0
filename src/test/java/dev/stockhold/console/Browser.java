package dev.stockhold.console;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import org.junit.jupiter.api.Assumptions;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.Keys;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.interactions.Actions;
import org.openqa.selenium.support.ui.WebDriverWait;

import dev.stockhold.support.NpmTools;

/**
 * Debian's Chromium, headless, driven through its own chromedriver (no browser is downloaded), with what the console's
 * tests do in it: press keys only (Tab to a control, type, Enter), wait for the page, and check it with axe-core.
 * Without Chromium the test is skipped, except in CI, which installs it (.ci/run): there a missing one fails.
 */
final class Browser implements AutoCloseable {

    static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
    static final String AXE = "axe-core@4.11.4";
    static final Path AXE_SCRIPT = Path.of("target/axe/node_modules/axe-core/axe.min.js");
    private static final int MAX_TABS = 80;

    final ChromeDriver driver;
    private final WebDriverWait wait;

    private Browser(ChromeDriver driver) {
        this.driver = driver;
        this.wait = new WebDriverWait(driver, Duration.ofSeconds(15));
        wait.ignoring(StaleElementReferenceException.class);
    }

    static Browser open() throws Exception {
        boolean present = Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER);
        assertThat(present || !"true".equals(System.getenv("CI"))).as("Chromium and chromedriver in CI (.ci/run installs them)").isTrue();
        Assumptions.assumeTrue(present, "Chromium is not installed: the console's browser tests are skipped");
        NpmTools.install("axe", AXE, AXE_SCRIPT);
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1280,1100",
                "--lang=en-US");
        options.setCapability("goog:loggingPrefs", Map.of("browser", "ALL"));
        ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(CHROMEDRIVER.toFile()).build();
        return new Browser(new ChromeDriver(service, options));
    }

    void get(String url) {
        driver.get(url);
    }

    <T> T await(Function<WebDriver, T> condition) {
        return wait.until(condition);
    }

    /** Waits until the page shows an element of this selector whose text contains {@code text}, and returns it. */
    WebElement awaitText(String css, String text) {
        return wait.withMessage(() -> "'" + text + "' in " + css + "; status: " + status()).until(d -> d.findElements(By.cssSelector(css))
                .stream().filter(e -> e.getText().contains(text)).findFirst().orElse(null));
    }

    String status() {
        return driver.findElements(By.id("status")).stream().map(WebElement::getText).findFirst().orElse("");
    }

    String fact(String name) {
        return driver.findElement(By.cssSelector("[data-fact='" + name + "']")).getText();
    }

    /** Presses Tab until the focused element is the one the selector finds with this text (a name, label or value). */
    WebElement tabTo(String css, String text) {
        for (int i = 0; i < MAX_TABS; i++) {
            WebElement focused = driver.switchTo().activeElement();
            if (matches(focused, css, text)) {
                return focused;
            }
            new Actions(driver).sendKeys(Keys.TAB).perform();
        }
        throw new AssertionError("no " + css + " '" + text + "' reachable with the Tab key");
    }

    private boolean matches(WebElement element, String css, String text) {
        Object match = script("return arguments[0].matches(arguments[1])", element, css);
        if (!Boolean.TRUE.equals(match)) {
            return false;
        }
        if (text == null) {
            return true;
        }
        String name = String.valueOf(script("const e = arguments[0]; return (e.labels && e.labels[0] ? e.labels[0].textContent : '')"
                + " + '|' + e.textContent + '|' + (e.getAttribute('name') || '') + '|' + (e.getAttribute('aria-label') || '')", element));
        return name.contains(text);
    }

    /** Tab to a field and type into it (replacing what it held). */
    void type(String css, String text, String value) {
        WebElement field = tabTo(css, text);
        new Actions(driver).keyDown(Keys.CONTROL).sendKeys("a").keyUp(Keys.CONTROL).sendKeys(Keys.BACK_SPACE).sendKeys(value).perform();
        assertThat(field.getAttribute("value")).isEqualTo(value);
    }

    void press(CharSequence key) {
        new Actions(driver).sendKeys(key).perform();
    }

    Object script(String script, Object... args) {
        return ((JavascriptExecutor) driver).executeScript(script, args);
    }

    /** The serious and critical violations axe-core finds on the page as it is now (rule id: the elements' selectors). */
    @SuppressWarnings("unchecked")
    List<String> accessibilityViolations() throws Exception {
        script(Files.readString(AXE_SCRIPT));
        Object result = ((JavascriptExecutor) driver).executeAsyncScript("""
                const done = arguments[arguments.length - 1];
                axe.run(document, { resultTypes: ['violations'] }).then(r => done(r.violations
                  .filter(v => v.impact === 'serious' || v.impact === 'critical')
                  .map(v => v.id + ' (' + v.impact + '): ' + v.nodes.map(n => n.target.join(' ')).join(', '))))
                  .catch(e => done(['axe failed: ' + e]));
                """);
        return (List<String>) result;
    }

    /** Every axe rule that ran: how many passed, so a check that looked at nothing is seen. */
    @SuppressWarnings("unchecked")
    long accessibilityPasses() {
        Object result = ((JavascriptExecutor) driver).executeAsyncScript("""
                const done = arguments[arguments.length - 1];
                axe.run(document).then(r => done(r.passes.length));
                """);
        return ((Number) result).longValue();
    }

    /** The whole page from its top, in a window tall enough for it (up to 2,000 pixels). */
    void screenshot(Path file) throws Exception {
        Files.createDirectories(file.toAbsolutePath().getParent());
        Dimension before = driver.manage().window().getSize();
        long height = ((Number) script("return document.documentElement.scrollHeight")).longValue();
        driver.manage().window().setSize(new Dimension(before.getWidth(), (int) Math.min(2_000, height + 140)));
        script("window.scrollTo(0, 0)");
        Files.write(file, driver.getScreenshotAs(OutputType.BYTES));
        driver.manage().window().setSize(before);
    }

    /**
     * Errors the page logged (a script error, something the Content-Security-Policy refused), other than the API's
     * own 4xx answers, which the console shows as problems.
     */
    List<String> pageErrors() {
        return driver.manage().logs().get("browser").getAll().stream().filter(e -> e.getLevel().intValue() >= 1000)
                .map(e -> e.getMessage()).filter(m -> !m.contains("the server responded with a status of 4")).toList();
    }

    @Override
    public void close() {
        driver.quit();
    }

    // the console's own steps

    void goTo(String view) {
        tabTo("nav a", view);
        press(Keys.ENTER);
        awaitText("main h1", view);
    }

    void findReservation(String by, String value) {
        WebElement select = tabTo("select", "Find by");
        // Home, then down to the option: type-ahead cannot tell "id" from "Idempotency-Key"
        press(Keys.HOME);
        for (int i = 0; i < List.of("id", "reference", "Idempotency-Key").indexOf(by); i++) {
            press(Keys.ARROW_DOWN);
        }
        assertThat(select.getAttribute("value")).isEqualTo(by.equals("Idempotency-Key") ? "idempotencyKey" : by);
        type("input", "Value", value);
        press(Keys.ENTER);
    }

    /** The authorization-code flow by keyboard: the console's Sign in, the provider's login page, back signed in. */
    void signIn(URL console, TestIdentityProvider.User user) {
        get(console.toString());
        awaitText("main p", "Sign in with");
        tabTo("button", "Sign in");
        press(Keys.ENTER);
        awaitText("h1", "Test identity provider");
        type("input", "Username", user.name());
        type("input", "Password", TestIdentityProvider.PASSWORD);
        press(Keys.ENTER);
        awaitText("[data-fact='tenant']", "Tenant " + user.tenant());
        assertThat(driver.getCurrentUrl()).as("the code is not left in the address bar").doesNotContain("code=");
    }

    void findSku(String wanted) {
        type("input", "Sku", wanted);
        press(Keys.ENTER);
    }

    List<WebElement> rowsOf(String caption) {
        return driver.findElements(By.xpath("//table[caption[contains(., '" + caption + "')]]/tbody/tr"));
    }

    /** The texts of a table row's cells, its row header included, in order. */
    List<String> cells(String caption, int row) {
        return rowsOf(caption).get(row).findElements(By.cssSelector("th, td")).stream().map(WebElement::getText).toList();
    }

    void doubleClick(WebElement element) {
        new Actions(driver).doubleClick(element).perform();
    }
}
