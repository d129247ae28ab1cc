package io.ferry.workflow.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.ferry.api.FerryMessage;
import io.ferry.api.FerryMessage.PayloadType;
import io.ferry.api.Service;
import io.ferry.api.ServiceException;

class XsltServiceTest {

    private static final String SECRET = "TOP-SECRET-42";

    private final XsltServiceFactory factory = new XsltServiceFactory();

    @TempDir
    Path dir;

    private Service orderToInvoice() throws Exception {
        Path stylesheet = Path.of(getClass().getResource("/xslt/order-to-invoice.xsl").toURI());
        return factory.create("invoice", Map.of("stylesheet", stylesheet.toString()));
    }

    private static String order(int id) {
        return "<order id=\"" + id + "\"><item sku=\"A1\" qty=\"2\">Crème brûlée</item><item sku=\"B7\" qty=\"1\">Tea</item></order>";
    }

    private static String invoice(int id) {
        return "<invoice order=\"" + id + "\"><line sku=\"A1\" quantity=\"2\">Crème brûlée</line><line sku=\"B7\" quantity=\"1\">Tea</line></invoice>";
    }

    @Test
    void transformsThePayloadIntoText() throws Exception {
        FerryMessage message = Messages.bytes(order(42));
        message.metadata().put("seq", 1);

        orderToInvoice().apply(message);

        assertThat(message.payloadType()).isEqualTo(PayloadType.TEXT);
        assertThat(message.text()).isEqualTo(invoice(42));
        assertThat(message.metadata()).containsEntry("seq", 1);
    }

    @Test
    void aPayloadThatIsNotWellFormedIsRejectedAndTheNextOneStillWorks() throws Exception {
        Service service = orderToInvoice();
        FerryMessage broken = Messages.text("<order id=\"1\"><item></order>");

        assertThatThrownBy(() -> service.apply(broken))
                .isInstanceOf(ServiceException.class)
                .hasMessageStartingWith("service 'invoice': payload is not well-formed XML (line 1, column ");
        assertThat(broken.text()).isEqualTo("<order id=\"1\"><item></order>");

        FerryMessage next = Messages.text(order(2));
        service.apply(next);
        assertThat(next.text()).isEqualTo(invoice(2));
    }

    @Test
    void aPayloadThatIsNotXmlAtAllIsRejected() throws Exception {
        assertThatThrownBy(() -> orderToInvoice().apply(Messages.text("just text")))
                .isInstanceOf(ServiceException.class)
                .hasMessageStartingWith("service 'invoice': payload is not well-formed XML");
    }

    @Test
    void anExternalEntityInThePayloadIsNeverRead() throws Exception {
        Path secret = Files.writeString(dir.resolve("secret.txt"), SECRET);
        String xxe = "<?xml version=\"1.0\"?><!DOCTYPE order [<!ENTITY leak SYSTEM \"" + secret.toUri() + "\">]>"
                + "<order id=\"5\"><item sku=\"A1\" qty=\"1\">&leak;</item></order>";
        FerryMessage message = Messages.text(xxe);

        orderToInvoice().apply(message);

        // The parser skips the external entity: the line is empty, not the file's content.
        assertThat(message.text()).isEqualTo("<invoice order=\"5\"><line sku=\"A1\" quantity=\"1\"/></invoice>");
    }

    @Test
    void anExternalEntityInAnAttributeIsRejected() throws Exception {
        Path secret = Files.writeString(dir.resolve("secret.txt"), SECRET);
        String xxe = "<?xml version=\"1.0\"?><!DOCTYPE order [<!ENTITY leak SYSTEM \"" + secret.toUri() + "\">]>"
                + "<order id=\"&leak;\"/>";

        assertThatThrownBy(() -> orderToInvoice().apply(Messages.text(xxe)))
                .isInstanceOf(ServiceException.class)
                .hasMessageStartingWith("service 'invoice': payload is not well-formed XML")
                .hasMessageNotContaining(SECRET);
    }

    @Test
    void anExternalDtdIsNotFetched() throws Exception {
        // Nothing listens on port 1: fetching the DTD would fail the transformation.
        String withDtd = "<?xml version=\"1.0\"?><!DOCTYPE order SYSTEM \"http://127.0.0.1:1/order.dtd\">" + order(7);
        FerryMessage message = Messages.text(withDtd);

        orderToInvoice().apply(message);

        assertThat(message.text()).isEqualTo(invoice(7));
    }

    @Test
    void aStylesheetCannotReadOtherFilesWithDocument() throws Exception {
        Files.writeString(dir.resolve("secret.xml"), "<secret>" + SECRET + "</secret>");
        Path stylesheet = Files.writeString(dir.resolve("peek.xsl"), """
                <xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform">
                  <xsl:output method="text"/>
                  <xsl:template match="/">[<xsl:value-of select="document('secret.xml')/secret"/>]</xsl:template>
                </xsl:stylesheet>
                """);
        Service service = factory.create("peek", Map.of("stylesheet", stylesheet.toString()));
        FerryMessage message = Messages.text("<order/>");

        assertThatThrownBy(() -> service.apply(message))
                .isInstanceOf(ServiceException.class)
                .hasMessageStartingWith("service 'peek': XSLT transformation failed");
        assertThat(message.text()).isEqualTo("<order/>");
    }

    @Test
    void transformsConcurrentlyFromFourThreads() throws Exception {
        Service service = orderToInvoice();
        ExecutorService workers = Executors.newFixedThreadPool(4);
        try {
            List<Callable<Void>> tasks = new ArrayList<>();
            for (int thread = 0; thread < 4; thread++) {
                int first = thread * 1_000;
                tasks.add(() -> {
                    for (int id = first; id < first + 500; id++) {
                        FerryMessage message = Messages.text(order(id));
                        service.apply(message);
                        assertThat(message.text()).isEqualTo(invoice(id));
                    }
                    return null;
                });
            }
            for (Future<Void> done : workers.invokeAll(tasks)) {
                done.get(); // rethrows a worker's failed assertion
            }
        } finally {
            workers.shutdownNow();
        }
    }

    @Test
    void badSettingsNameTheSetting() throws Exception {
        assertThatIllegalArgumentException().isThrownBy(() -> factory.create("x", Map.of()))
                .withMessage("service 'x': setting 'stylesheet' is required");
        assertThatIllegalArgumentException().isThrownBy(() -> factory.create("x", Map.of("stylesheet", dir.resolve("none.xsl").toString())))
                .withMessageStartingWith("service 'x': setting 'stylesheet' is not a readable file: ");
        Path notXslt = Files.writeString(dir.resolve("broken.xsl"), "<xsl:stylesheet version=\"1.0\" xmlns:xsl=\"http://www.w3.org/1999/XSL/Transform\"><xsl:bogus/>");
        assertThatIllegalArgumentException().isThrownBy(() -> factory.create("x", Map.of("stylesheet", notXslt.toString())))
                .withMessageStartingWith("service 'x': setting 'stylesheet' cannot be compiled (" + notXslt + "): ");
        assertThatIllegalArgumentException().isThrownBy(() -> factory.create("x", Map.of("stylesheet", notXslt.toString(), "xsl", "y")))
                .withMessage("service 'x': unknown setting 'xsl' (known: stylesheet)");
    }

    @Test
    void anExternalEntityInTheStylesheetStopsItsCompilation() throws Exception {
        Path secret = Files.writeString(dir.resolve("secret.txt"), SECRET);
        Path stylesheet = Files.writeString(dir.resolve("leaky.xsl"), "<?xml version=\"1.0\"?>"
                + "<!DOCTYPE xsl:stylesheet [<!ENTITY leak SYSTEM \"" + secret.toUri() + "\">]>"
                + "<xsl:stylesheet version=\"1.0\" xmlns:xsl=\"http://www.w3.org/1999/XSL/Transform\">"
                + "<xsl:template match=\"/\">&leak;</xsl:template></xsl:stylesheet>");

        assertThatIllegalArgumentException().isThrownBy(() -> factory.create("x", Map.of("stylesheet", stylesheet.toString())))
                .withMessageStartingWith("service 'x': setting 'stylesheet' cannot be compiled")
                .withMessageNotContaining(SECRET);
    }
}
