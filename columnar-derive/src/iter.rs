//! `#[columnar(iterable)]`: `Iterable{Row}<'__iter>`, the row iterator over a container's
//! column streams.

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;

use crate::common::{
    iter_lifetime, local, mentions_type_param, private, replace_lifetimes, row_strategy,
    type_param_args,
};
use crate::internals::ast::Container;

pub fn expand(container: &Container) -> TokenStream {
    let p = private(&container.krate);
    let ident = &container.ident;
    let vis = &container.vis;
    let iter = iter_lifetime();
    let iter_ident = format_ident!("Iterable{}", ident);
    let generics = &container.generics;
    let type_params: Vec<_> = generics.type_params().collect();
    let type_args = type_param_args(container);
    let where_clause = &generics.where_clause;

    // The row as the iterator yields it: its lifetimes become '__iter.
    let row_args = generics.params.iter().map(|param| match param {
        syn::GenericParam::Lifetime(_) => quote!(#iter),
        syn::GenericParam::Type(param) => {
            let name = &param.ident;
            quote!(#name)
        }
        syn::GenericParam::Const(param) => {
            let name = &param.ident;
            quote!(#name)
        }
    });
    let row = quote!(#ident<#(#row_args),*>);

    let mut predicates = Vec::new();
    let mut struct_fields = Vec::new();
    let mut reads = Vec::new();
    let mut slots = Vec::new();
    let mut arms = Vec::new();
    let mut inits = Vec::new();
    for field in &container.fields {
        let name = &field.ident;
        let field_vis = &field.vis;
        let var = local(field);
        let ty = replace_lifetimes(generics, &field.ty, &iter);
        if field.is_skipped() {
            if mentions_type_param(generics, &field.ty) {
                predicates.push(quote!(#ty: #p::Default));
            }
            continue;
        }
        let strategy = row_strategy(&container.krate, field);
        let column = quote!(<#strategy as #p::CodecDe<#iter, #ty>>::Iter);
        predicates.extend(crate::common::element_bound_of(container, field, &ty));
        if mentions_type_param(generics, &field.ty) {
            predicates.push(quote!(#strategy: #p::CodecDe<#iter, #ty>));
        }
        if field.is_optional() {
            if mentions_type_param(generics, &field.ty) {
                predicates.push(quote!(#ty: #p::Default));
            }
            struct_fields.push(quote!(#field_vis #name: #p::OptionalIter<#column>));
            slots.push(quote!(let mut #var = #p::Option::None;));
            let index = field.index();
            arms.push(quote_spanned!(field.ty.span()=> #index => __column.iter::<#strategy, #ty>(&mut #var),));
            inits.push(quote!(#name: #p::OptionalIter::new(#var)));
        } else {
            struct_fields.push(quote!(#field_vis #name: #column));
            reads.push(quote_spanned!(field.ty.span()=> let #var = __columns.required_iter::<#strategy, #ty>()?;));
            inits.push(quote!(#name: #var));
        }
    }
    let any_present = crate::common::any_column_present(container, |field| {
        let var = local(field);
        quote!(#p::Option::is_some(&#var))
    });
    let crate::common::RowMatch { pull, record } = crate::common::row_match(
        container,
        |field| {
            let name = &field.ident;
            quote!(self.#name)
        },
        |inits| quote!(return #p::Option::Some(#p::StdResult::Ok(#ident { #inits }));),
    );
    let optionals = if arms.is_empty() {
        quote!(__columns.optionals(|_, _| #p::StdResult::Ok(false))?;)
    } else {
        quote! {
            __columns.optionals(|__index, __column| match __index {
                #(#arms)*
                _ => #p::StdResult::Ok(false),
            })?;
        }
    };
    let mut where_predicates: Vec<TokenStream> = where_clause
        .as_ref()
        .map(|clause| {
            clause
                .predicates
                .iter()
                .map(|predicate| quote!(#predicate))
                .collect()
        })
        .unwrap_or_default();
    where_predicates.extend(predicates);
    let bounded_params = type_params.iter().map(|param| quote!(#param));
    let doc = format!(
        "The rows of a [`{ident}`] container, decoded one at a time from its column streams."
    );
    quote! {
        #[doc = #doc]
        #[allow(dead_code)]
        #vis struct #iter_ident<#iter, #(#bounded_params),*>
        where #(#where_predicates,)*
        {
            #(#struct_fields,)*
            __done: bool,
        }

        #[automatically_derived]
        impl<#iter, #(#type_params),*> #p::IterRows<#iter> for #iter_ident<#iter, #(#type_args),*>
        where #(#where_predicates,)*
        {
            fn iter_rows<__A: #p::serde::de::SeqAccess<#iter>>(
                __columns: &mut #p::ColumnsReader<#iter, __A>,
            ) -> #p::StdResult<Self, __A::Error> {
                #(#reads)*
                #(#slots)*
                #optionals
                let __done = !(#any_present);
                #p::StdResult::Ok(Self { #(#inits,)* __done })
            }
        }

        #[automatically_derived]
        impl<#iter, #(#type_params),*> #p::Iterator for #iter_ident<#iter, #(#type_args),*>
        where #(#where_predicates,)*
        {
            type Item = #p::StdResult<#row, #p::Error>;
            // With no column, the row is built before the first statement after `pull`.
            // Inlined into the caller's loop: the row's fields then stay in registers instead
            // of going through a returned `Option<Result<Row>>` in memory.
            #[inline]
            #[allow(unreachable_code, unused_mut, unused_variables)]
            fn next(&mut self) -> #p::Option<Self::Item> {
                if self.__done {
                    return #p::Option::None;
                }
                let (__k, __o): (::core::primitive::usize, #p::Option<#p::Result<()>>) = #pull;
                self.__done = true;
                let mut __step = #p::RowStep::default();
                #record
                __step.outcome().map(#p::StdResult::Err)
            }
        }
    }
}
