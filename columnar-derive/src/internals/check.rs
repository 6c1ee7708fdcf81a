//! Rules that involve more than one argument or more than one field.

use std::collections::HashMap;

use syn::visit::Visit;

use super::ast::Container;
use super::attr::Class;
use super::ctxt::Ctxt;

/// Runs every cross-attribute check, recording violations in `cx`.
pub fn check(cx: &Ctxt, container: &Container) {
    check_field_arguments(cx, container);
    check_indexes(cx, container);
    check_order(cx, container);
}

fn check_field_arguments(cx: &Ctxt, container: &Container) {
    for field in &container.fields {
        let args = &field.args;
        if let (Some(_), Some((_, class))) = (&args.strategy, &args.class) {
            cx.error_spanned_by(class, "a field cannot have both `strategy` and `class`");
        }
        if let (Some(optional), None) = (&args.optional, &args.index) {
            cx.error_spanned_by(optional, "`optional` needs a stable `index = N`");
        }
        // `index` without `optional` is accepted and ignored, as serde_columnar does: the
        // field stays positional and its bytes do not change.
        if let Some((_, iter)) = &args.iter {
            match field.class() {
                None => {
                    cx.error_spanned_by(iter, "`iter` needs `class = \"vec\"` on the same field")
                }
                Some(Class::Map) => {
                    cx.error_spanned_by(iter, "`iter` is not supported on `class = \"map\"` fields")
                }
                Some(Class::Vec) => {}
            }
            if let Some(optional) = &args.optional {
                cx.error_spanned_by(optional, "an `iter` field cannot be `optional`");
            }
        }
        if let Some(borrow) = &args.borrow {
            if !has_lifetime(&field.ty) {
                let ty = &field.ty;
                cx.error_spanned_by(
                    &borrow.path,
                    format_args!(
                        "`borrow` needs a field type with a lifetime, such as `Cow<'a, str>`; `{}` has none",
                        quote::quote!(#ty).to_string().replace(' ', "")
                    ),
                );
            } else if let Some(lifetimes) = &borrow.lifetimes {
                let declared: Vec<_> = container
                    .generics
                    .lifetimes()
                    .map(|param| &param.lifetime)
                    .collect();
                for lifetime in lifetimes {
                    if !declared.contains(&lifetime) {
                        cx.error_spanned_by(
                            &borrow.path,
                            format_args!(
                                "`borrow` names `{lifetime}`, which the struct does not declare"
                            ),
                        );
                    }
                }
            }
        }
        if let (Some(skip), true) = (
            &args.skip,
            args.optional.is_some() || args.strategy.is_some() || args.class.is_some(),
        ) {
            cx.error_spanned_by(
                skip,
                "a `skip` field is not written; it takes no other column argument",
            );
        }
    }
}

fn check_indexes(cx: &Ctxt, container: &Container) {
    let mut seen = HashMap::new();
    for field in container.optional() {
        if let Some((index, lit)) = &field.args.index {
            if let Some(first) = seen.insert(*index, &field.ident) {
                cx.error_spanned_by(
                    lit,
                    format_args!("duplicate optional index {index}: `{first}` has it already"),
                );
            }
        }
    }
}

/// Optional fields go last: a reader finds required columns by position.
fn check_order(cx: &Ctxt, container: &Container) {
    let mut first_optional = None;
    for field in &container.fields {
        if field.is_optional() {
            first_optional.get_or_insert(&field.ident);
        } else if let Some(optional) = first_optional {
            if field.is_skipped() {
                cx.error_spanned_by(
                    &field.ident,
                    format_args!("field `{}` comes after optional field `{optional}`; move optional fields last (a skipped field counts as required)", field.ident),
                );
            } else {
                cx.error_spanned_by(
                    &field.ident,
                    format_args!("required field `{}` comes after optional field `{optional}`; optional fields must come last", field.ident),
                );
            }
        }
    }
}

fn has_lifetime(ty: &syn::Type) -> bool {
    struct Finder(bool);
    impl Visit<'_> for Finder {
        fn visit_lifetime(&mut self, lifetime: &syn::Lifetime) {
            if lifetime.ident != "static" {
                self.0 = true;
            }
        }
        fn visit_type_reference(&mut self, reference: &syn::TypeReference) {
            // `&str` inside a struct always has a lifetime once it compiles.
            self.0 |= reference
                .lifetime
                .as_ref()
                .is_none_or(|l| l.ident != "static");
            syn::visit::visit_type_reference(self, reference);
        }
    }
    let mut finder = Finder(false);
    finder.visit_type(ty);
    finder.0
}
