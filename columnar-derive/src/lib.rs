//! The `#[columnar]` attribute macro of the [`columnar`] crate. Use it through
//! `columnar::columnar`; the generated code refers only to `<library>::__private`, where
//! `<library>` is the name the user's Cargo.toml gives the `columnar` package (found with
//! `proc-macro-crate`; a `serde_columnar` dependency — the compatibility package — also
//! counts), or the path given by `#[columnar(crate = "path")]`.
//!
//! Layout: `internals/` parses the attribute arguments into a typed model (`attr`, `ast`),
//! collects every error with its span (`ctxt`) and checks the rules that span several
//! arguments (`check`); `table`, `row` and `iter` generate code from the checked model and
//! never parse.
//!
//! [`columnar`]: https://docs.rs/columnar

mod common;
mod internals;
mod iter;
mod row;
mod table;

use proc_macro::TokenStream;
use quote::quote;

use internals::ast::Container;
use internals::attr::StructArgs;
use internals::ctxt::Ctxt;

/// Turns a struct into a columnar table and/or row. See the `columnar` crate docs.
#[proc_macro_attribute]
pub fn columnar(args: TokenStream, item: TokenStream) -> TokenStream {
    expand(args.into(), item.into()).into()
}

fn expand(
    args: proc_macro2::TokenStream,
    item: proc_macro2::TokenStream,
) -> proc_macro2::TokenStream {
    let mut input: syn::DeriveInput = match syn::parse2(item.clone()) {
        Ok(input) => input,
        Err(_) => {
            // Functions, enums with odd syntax...: name the item kind and keep the item.
            let err = syn::Error::new_spanned(
                item.clone().into_iter().next(),
                "#[columnar] can only be used on structs with named fields",
            );
            let err = err.to_compile_error();
            return quote!(#err #item);
        }
    };
    let cx = Ctxt::default();
    let mut struct_args = StructArgs::default();
    struct_args.parse_into(&cx, args);
    let container = Container::from_item(&cx, struct_args, &mut input);
    if let Some(container) = &container {
        internals::check::check(&cx, container);
    }
    finish(cx, input, container)
}

fn finish(
    cx: Ctxt,
    input: syn::DeriveInput,
    container: Option<Container>,
) -> proc_macro2::TokenStream {
    match (cx.check(), container) {
        (Ok(()), Some(container)) => {
            let generated = generate(&container);
            quote! {
                #input
                #generated
            }
        }
        (Err(err), container) => {
            let errors = err.to_compile_error();
            let fallback = container.as_ref().map(fallback);
            quote! {
                #input
                #errors
                #fallback
            }
        }
        (Ok(()), None) => quote!(#input),
    }
}

fn generate(container: &Container) -> proc_macro2::TokenStream {
    let args = &container.args;
    let ser = args.ser.then(|| table::serialize(container));
    let de = args.de.then(|| table::deserialize(container));
    let table_iter = (args.de && container.has_iter_fields()).then(|| table::table_iter(container));
    let rows = (args.vec || args.map).then(|| row::expand(container));
    let iterable = args.iterable.then(|| iter::expand(container));
    quote! {
        #ser
        #de
        #table_iter
        #rows
        #iterable
    }
}

/// After an attribute error, the impls the struct asked for, with bodies that are never
/// compiled into a program (the error stops the build), so the user sees the one error
/// and not a cascade of "trait not implemented" at every use.
fn fallback(container: &Container) -> proc_macro2::TokenStream {
    let p = common::private(&container.krate);
    let ident = &container.ident;
    let (impl_generics, ty_generics, where_clause) = container.generics.split_for_impl();
    let de_generics = common::with_de_lifetime(&container.generics, &common::de_lifetime());
    let (de_impl_generics, _, _) = de_generics.split_for_impl();
    let args = &container.args;
    let ser = args.ser.then(|| quote! {
        impl #impl_generics #p::serde::Serialize for #ident #ty_generics #where_clause {
            fn serialize<__S: #p::serde::Serializer>(&self, _: __S) -> #p::StdResult<__S::Ok, __S::Error> {
                ::core::unreachable!()
            }
        }
    });
    let de = args.de.then(|| quote! {
        impl #de_impl_generics #p::serde::Deserialize<'de> for #ident #ty_generics #where_clause {
            fn deserialize<__D: #p::serde::Deserializer<'de>>(_: __D) -> #p::StdResult<Self, __D::Error> {
                ::core::unreachable!()
            }
        }
    });
    // `iter_from_bytes::<Table>` needs `TableIter`; the table itself stands in for its `{Table}Iter`.
    let table_iter = (args.de && container.has_iter_fields()).then(|| {
        quote! {
            impl #de_impl_generics #p::TableIter<'de> for #ident #ty_generics #where_clause {
                type Iter = Self;
            }
        }
    });
    let rows = (args.vec || args.map).then(|| quote! {
        impl #impl_generics #p::EncodeRows for #ident #ty_generics #where_clause {
            fn encode_rows<'__r, __I>(_: __I, _: &mut #p::ColumnsWriter) -> #p::Result<()>
            where __I: #p::Iterator<Item = &'__r Self>, Self: '__r {
                ::core::unreachable!()
            }
        }
        impl #de_impl_generics #p::DecodeRows<'de> for #ident #ty_generics #where_clause {
            fn decode_rows<__A: #p::serde::de::SeqAccess<'de>>(_: &mut #p::ColumnsReader<'de, __A>) -> #p::StdResult<#p::Vec<Self>, __A::Error> {
                ::core::unreachable!()
            }
        }
    });
    let vec = args
        .vec
        .then(|| quote!(impl #impl_generics #p::VecRow for #ident #ty_generics #where_clause {}));
    let map = args
        .map
        .then(|| quote!(impl #impl_generics #p::MapRow for #ident #ty_generics #where_clause {}));
    quote! {
        #ser
        #de
        #table_iter
        #rows
        #vec
        #map
    }
}
