package io.ferry.workflow.service;

import java.io.IOException;
import java.io.StringReader;
import java.io.StringWriter;

import javax.xml.transform.OutputKeys;
import javax.xml.transform.Templates;
import javax.xml.transform.Transformer;
import javax.xml.transform.TransformerConfigurationException;
import javax.xml.transform.TransformerException;
import javax.xml.transform.sax.SAXSource;
import javax.xml.transform.stream.StreamResult;

import org.xml.sax.InputSource;
import org.xml.sax.SAXException;
import org.xml.sax.SAXParseException;
import org.xml.sax.XMLReader;
import org.xml.sax.helpers.XMLFilterImpl;

import io.ferry.api.FerryMessage;
import io.ferry.api.Service;
import io.ferry.api.ServiceException;

/**
 * Transforms the payload (read as UTF-8 text) with an XSLT stylesheet; the result becomes a text
 * payload. The stylesheet is compiled once into {@link Templates}, which is thread-safe; a
 * {@link Transformer} and an XML reader are not, so each worker thread keeps its own pair.
 */
public final class XsltService implements Service {

    private final String id;
    private final Templates templates;
    private final ThreadLocal<Transformation> perThread;

    public XsltService(String id, Templates templates) {
        this.id = id;
        this.templates = templates;
        this.perThread = ThreadLocal.withInitial(this::newTransformation);
    }

    @Override
    public String id() {
        return id;
    }

    @Override
    public void apply(FerryMessage message) throws ServiceException {
        Transformation transformation = perThread.get();
        try {
            message.setText(transformation.run(message.text()));
        } catch (TransformerException e) {
            // A failed transformer may hold half a document's state: start the next message afresh.
            perThread.remove();
            throw failure(e, transformation.reader().parseError());
        }
    }

    private ServiceException failure(TransformerException e, SAXParseException parseError) {
        if (parseError != null) {
            return new ServiceException("service '" + id + "': payload is not well-formed XML (line "
                    + parseError.getLineNumber() + ", column " + parseError.getColumnNumber() + "): "
                    + parseError.getMessage(), parseError);
        }
        return new ServiceException("service '" + id + "': XSLT transformation failed: " + e.getMessageAndLocation(), e);
    }

    private Transformation newTransformation() {
        try {
            Transformer transformer = templates.newTransformer();
            transformer.setErrorListener(XmlFactories.FAIL_ON_ERROR);
            // The result is kept as UTF-8 text, so an XML declaration must not claim another charset.
            transformer.setOutputProperty(OutputKeys.ENCODING, "UTF-8");
            return new Transformation(transformer, new ParseErrorRecorder(XmlFactories.newSecureReader()));
        } catch (TransformerConfigurationException e) {
            throw new IllegalStateException("service '" + id + "': cannot create a transformer: " + e.getMessage(), e);
        }
    }

    /** One thread's transformer and the hardened reader that parses its input. */
    private record Transformation(Transformer transformer, ParseErrorRecorder reader) {

        String run(String xml) throws TransformerException {
            StringWriter out = new StringWriter(xml.length());
            transformer.transform(new SAXSource(reader, new InputSource(new StringReader(xml))), new StreamResult(out));
            return out.toString();
        }
    }

    /**
     * Remembers why the payload could not be parsed. The JDK's XSLT processor wraps parse errors in
     * an internal exception that drops the cause, and "not well-formed" is the message an operator
     * needs to see.
     */
    private static final class ParseErrorRecorder extends XMLFilterImpl {

        private SAXParseException parseError;

        ParseErrorRecorder(XMLReader parser) {
            super(parser);
        }

        @Override
        public void parse(InputSource input) throws SAXException, IOException {
            parseError = null;
            try {
                super.parse(input);
            } catch (SAXParseException e) {
                parseError = e;
                throw e;
            }
        }

        SAXParseException parseError() {
            return parseError;
        }
    }
}
