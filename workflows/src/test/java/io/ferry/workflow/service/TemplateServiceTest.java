package io.ferry.workflow.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;

import org.junit.jupiter.api.Test;

import io.ferry.api.FerryMessage;
import io.ferry.api.FerryMessage.PayloadType;
import io.ferry.api.Service;
import io.ferry.api.ServiceException;

class TemplateServiceTest {

    private final TemplateServiceFactory factory = new TemplateServiceFactory();

    @Test
    void fillsMetadataAndPayloadPlaceholders() throws Exception {
        Service service = factory.create("wrap",
                Map.of("template", "<envelope customer=\"${customer}\" seq=\"${seq}\">${payload}</envelope>"));
        FerryMessage message = Messages.bytes("<order/>");
        message.metadata().put("customer", "acme");
        message.metadata().put("seq", 7);

        service.apply(message);

        assertThat(message.text()).isEqualTo("<envelope customer=\"acme\" seq=\"7\"><order/></envelope>");
        assertThat(message.payloadType()).isEqualTo(PayloadType.TEXT);
    }

    @Test
    void aPlaceholderMayRepeatAndStandAtEitherEnd() throws Exception {
        Service service = factory.create("twice", Map.of("template", "${word}-${ word }-${payload}"));
        FerryMessage message = Messages.text("end");
        message.metadata().put("word", "écho");

        service.apply(message);

        assertThat(message.text()).isEqualTo("écho-écho-end");
    }

    @Test
    void dollarsAndBracesOutsidePlaceholdersArePlainText() throws Exception {
        Service service = factory.create("price", Map.of("template", "costs $5 {net} $${amount}"));
        FerryMessage message = Messages.text("");
        message.metadata().put("amount", "9.99");

        service.apply(message);

        assertThat(message.text()).isEqualTo("costs $5 {net} $9.99");
    }

    @Test
    void anEmptyTemplateEmptiesThePayload() throws Exception {
        FerryMessage message = Messages.text("something");

        factory.create("blank", Map.of("template", "")).apply(message);

        assertThat(message.text()).isEmpty();
    }

    @Test
    void anUnknownKeyRejectsTheMessageAndLeavesItUnchanged() {
        Service service = factory.create("wrap", Map.of("template", "${customer}: ${payload}"));
        FerryMessage message = Messages.text("original");

        assertThatThrownBy(() -> service.apply(message))
                .isInstanceOf(ServiceException.class)
                .hasMessage("service 'wrap': message " + message.id() + " has no metadata key 'customer' (template placeholder ${customer})");
        assertThat(message.text()).isEqualTo("original");
    }

    @Test
    void badTemplatesNameTheSetting() {
        assertThatIllegalArgumentException().isThrownBy(() -> factory.create("wrap", Map.of()))
                .withMessage("service 'wrap': setting 'template' is required");
        assertThatIllegalArgumentException().isThrownBy(() -> factory.create("wrap", Map.of("template", "a ${open")))
                .withMessage("service 'wrap': setting 'template' has an unclosed '${' at position 2");
        assertThatIllegalArgumentException().isThrownBy(() -> factory.create("wrap", Map.of("template", "a ${ } b")))
                .withMessage("service 'wrap': setting 'template' has an empty placeholder '${}' at position 2");
        assertThatIllegalArgumentException().isThrownBy(() -> factory.create("wrap", Map.of("text", "x")))
                .withMessage("service 'wrap': unknown setting 'text' (known: template)");
    }
}
