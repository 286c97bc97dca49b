internal import CPoppler
import PDFReader

/// A form field as poppler sees it (second opinion for the inventory).
package struct PopplerFormFieldInfo: Sendable, Equatable {
    /// The fully qualified name.
    package var name: String
    /// `text`, `checkbox`, `radio`, `pushbutton`, `combo`, `list`, `signature`, `unknown`.
    package var type: String
    package var readOnly: Bool
}

/// An embedded file as poppler lists it.
package struct PopplerAttachmentInfo: Sendable, Equatable {
    package var name: String
    package var size: Int
}

extension PopplerFilePage {
    /// The page's form field widgets. The corresponding C function is
    /// `poppler_page_get_form_field_mapping`.
    package var formFields: [PopplerFormFieldInfo] {
        document.log.capture {
            guard let list = poppler_page_get_form_field_mapping(page) else { return [] }
            defer { poppler_page_free_form_field_mapping(list) }
            var out: [PopplerFormFieldInfo] = []
            for raw in glistItems(list) {
                if let field = raw.assumingMemoryBound(to: PopplerFormFieldMapping.self).pointee.field {
                    let name = PopplerFile.string(poppler_form_field_get_name(field)) ?? ""
                    var type = "unknown"
                    switch poppler_form_field_get_field_type(field) {
                    case POPPLER_FORM_FIELD_TEXT: type = "text"
                    case POPPLER_FORM_FIELD_SIGNATURE: type = "signature"
                    case POPPLER_FORM_FIELD_CHOICE:
                        type =
                            poppler_form_field_choice_get_choice_type(field) == POPPLER_FORM_CHOICE_COMBO
                            ? "combo" : "list"
                    case POPPLER_FORM_FIELD_BUTTON:
                        switch poppler_form_field_button_get_button_type(field) {
                        case POPPLER_FORM_BUTTON_PUSH: type = "pushbutton"
                        case POPPLER_FORM_BUTTON_CHECK: type = "checkbox"
                        default: type = "radio"
                        }
                    default: break
                    }
                    out.append(
                        PopplerFormFieldInfo(
                            name: name, type: type, readOnly: poppler_form_field_is_read_only(field) != 0))
                }
            }
            return out.reversed()
        }
    }
}

extension PopplerFile {
    /// The embedded files poppler finds. The corresponding C function is
    /// `poppler_document_get_attachments`.
    package var attachments: [PopplerAttachmentInfo] {
        log.capture {
            guard let list = poppler_document_get_attachments(doc) else { return [] }
            defer { g_list_free_full(list, { g_object_unref($0) }) }
            return glistItems(list).map { raw in
                let a = raw.assumingMemoryBound(to: PopplerAttachment.self)
                let name = poppler_attachment_get_name(a).map { String(cString: $0) } ?? ""
                return PopplerAttachmentInfo(name: name, size: Int(poppler_attachment_get_size(a)))
            }
        }
    }
}

/// An annotation as poppler maps it on a page.
package struct PopplerAnnotationInfo: Sendable, Equatable {
    /// Relative to the crop box, as in the link mapping.
    package var area: PDFRect
    /// `square`, `popup`, `link`, `widget`, `text`, … or `other`.
    package var type: String
    package var contents: String?
}

extension PopplerFilePage {
    /// The page's annotations. The corresponding C function is `poppler_page_get_annot_mapping`.
    package var annotations: [PopplerAnnotationInfo] {
        document.log.capture {
            guard let list = poppler_page_get_annot_mapping(page) else { return [] }
            defer { poppler_page_free_annot_mapping(list) }
            var out: [PopplerAnnotationInfo] = []
            for raw in glistItems(list) {
                let m = raw.assumingMemoryBound(to: PopplerAnnotMapping.self).pointee
                if let annot = m.annot {
                    let type: String
                    switch poppler_annot_get_annot_type(annot) {
                    case POPPLER_ANNOT_SQUARE: type = "square"
                    case POPPLER_ANNOT_POPUP: type = "popup"
                    case POPPLER_ANNOT_LINK: type = "link"
                    case POPPLER_ANNOT_WIDGET: type = "widget"
                    case POPPLER_ANNOT_TEXT: type = "text"
                    default: type = "other"
                    }
                    out.append(
                        PopplerAnnotationInfo(
                            area: PDFRect(m.area.x1, m.area.y1, m.area.x2, m.area.y2), type: type,
                            contents: PopplerFile.string(poppler_annot_get_contents(annot))))
                }
            }
            return out
        }
    }
}
