package io.ferry.workflow.service;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;

import javax.xml.transform.Templates;
import javax.xml.transform.TransformerConfigurationException;
import javax.xml.transform.stream.StreamSource;

import io.ferry.api.Service;

/**
 * {@code xslt}: setting {@code stylesheet} is the path of an XSLT 1.0 file, compiled at start-up so
 * that a broken stylesheet stops the adapter rather than every message.
 */
public final class XsltServiceFactory extends SelfContainedServiceFactory {

    public static final String TYPE = "xslt";
    static final String STYLESHEET = "stylesheet";

    @Override
    public String type() {
        return TYPE;
    }

    @Override
    public Service create(String id, Map<String, String> settings) {
        ServiceSettings checked = new ServiceSettings(id, settings);
        checked.rejectUnknown(Set.of(STYLESHEET));
        Path stylesheet = Path.of(checked.required(STYLESHEET));
        if (!Files.isRegularFile(stylesheet) || !Files.isReadable(stylesheet)) {
            throw checked.invalid(STYLESHEET, "is not a readable file: " + stylesheet.toAbsolutePath());
        }
        return new XsltService(id, compile(checked, stylesheet));
    }

    private static Templates compile(ServiceSettings settings, Path stylesheet) {
        try {
            return XmlFactories.secureTransformerFactory().newTemplates(new StreamSource(stylesheet.toFile()));
        } catch (TransformerConfigurationException e) {
            throw settings.invalid(STYLESHEET, "cannot be compiled (" + stylesheet + "): " + e.getMessageAndLocation());
        }
    }
}
