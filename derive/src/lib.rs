//! netcode-lab's parameters, stated once. A group of parameters is a plain struct: its fields, their doc comments,
//! serde's renames (`rename_all`, `rename`) and, per field, `#[param(…)]`: the range a value must be in, its unit,
//! and how the page shows it. From that one statement `#[derive(Params)]` makes
//!
//! ```text
//!  the keys          crate::tree::Group   (KEYS, read_key: the page's reader, key by key)
//!  the reader        crate::tree::Read    (a JavaScript object read into the group, refusals in serde's words)
//!  the range checks  check_ranges(&self)  (every ranged field, in declaration order, named by its key), and
//!                    check_<field>(&self) for one (a group that checks something between two fields)
//!  the schema        crate::param::Schema (each field's Param: key, kind, choices, unit, range, control, doc)
//!  one const a field Self::RENDER_DELAY   (its Param, for a check that needs more than its range)
//! ```
//! and `#[derive(Choice)]` does the same for a choice of names (a unit-only enum): its names as serde spells them
//! (`name()`, `ALL`), the reader, and its schema (a choice, and its options).
//!
//! ```ignore
//! #[derive(Params)]
//! #[serde(rename_all = "camelCase")]
//! pub struct ClockParams {
//!     /// How far behind the server's present the render time runs (seed 000 §4.3.8).
//!     #[param(range(0.0, 1.0), unit = "s", control(0.0, 400.0, 5.0, "ms", 1000.0))]
//!     pub render_delay: f64,
//! }
//! ```
//! `range(MIN, MAX)` takes any expressions; one that reads `self` (a bound set by another field) is checked but not
//! told to the schema. `control(MIN, MAX, STEP, UNIT, SCALE)` is in the unit the page shows (value × SCALE).
//! Container options: `#[params(expecting = "struct X")]` (serde's name for the group in refusals),
//! `#[params(own_reader)]` (the group reads itself: a flattened part; only `Group` is made) and
//! `#[params(no_field_consts)]` (the type already names its own constants, as `Keys::LEFT`).

use proc_macro::TokenStream;
use proc_macro2::{Span, TokenStream as Tokens, TokenTree};
use quote::{format_ident, quote};
use syn::parse::{Parse, ParseStream};
use syn::{parse_macro_input, Attribute, Data, DeriveInput, Expr, Fields, LitStr, Token};

#[proc_macro_derive(Params, attributes(param, params))]
pub fn derive_params(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    params(&input).unwrap_or_else(syn::Error::into_compile_error).into()
}

#[proc_macro_derive(Choice)]
pub fn derive_choice(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    choice(&input).unwrap_or_else(syn::Error::into_compile_error).into()
}

/// What serde's attributes of one item say: its explicit name, the rule for its children's names, whether it is
/// flattened into its parent.
#[derive(Default)]
struct Serde {
    rename: Option<String>,
    rename_all: Option<String>,
    flatten: bool,
}

fn serde_of(attrs: &[Attribute]) -> syn::Result<Serde> {
    let mut out = Serde::default();
    for attr in attrs.iter().filter(|a| a.path().is_ident("serde")) {
        attr.parse_nested_meta(|meta| {
            if meta.path.is_ident("rename") {
                out.rename = Some(meta.value()?.parse::<LitStr>()?.value());
            } else if meta.path.is_ident("rename_all") {
                out.rename_all = Some(meta.value()?.parse::<LitStr>()?.value());
            } else if meta.path.is_ident("flatten") {
                out.flatten = true;
            } else if meta.input.peek(Token![=]) {
                let _: Expr = meta.value()?.parse()?;
            } else if meta.input.peek(syn::token::Paren) {
                let _content;
                syn::parenthesized!(_content in meta.input);
                let _: Tokens = _content.parse()?;
            }
            Ok(())
        })?;
    }
    Ok(out)
}

/// A Rust name as serde's `rename_all` rule spells it.
fn renamed(name: &str, rule: Option<&str>, span: Span) -> syn::Result<String> {
    let words: Vec<String> = if name.contains('_') || name.chars().all(|c| !c.is_uppercase()) {
        name.split('_').filter(|w| !w.is_empty()).map(str::to_lowercase).collect()
    } else {
        // A variant in PascalCase: split before each capital.
        let mut words = vec![String::new()];
        for c in name.chars() {
            if c.is_uppercase() && !words.last().is_some_and(String::is_empty) {
                words.push(String::new());
            }
            words.last_mut().expect("one word").extend(c.to_lowercase());
        }
        words
    };
    let capital = |w: &str| w.chars().take(1).flat_map(char::to_uppercase).chain(w.chars().skip(1)).collect::<String>();
    Ok(match rule {
        None => name.to_string(),
        Some("camelCase") => {
            words.iter().enumerate().map(|(i, w)| if i == 0 { w.clone() } else { capital(w) }).collect()
        }
        Some("PascalCase") => words.iter().map(|w| capital(w)).collect(),
        Some("snake_case") => words.join("_"),
        Some("kebab-case") => words.join("-"),
        Some(other) => {
            return Err(syn::Error::new(span, format!("rename_all = \"{other}\" is not one the derive knows")))
        }
    })
}

/// A field's `#[param(…)]`.
#[derive(Default)]
struct ParamAttr {
    range: Option<(Expr, Expr)>,
    unit: Option<LitStr>,
    control: Option<Control>,
}

struct Control {
    min: Expr,
    max: Expr,
    step: Expr,
    unit: LitStr,
    scale: Expr,
}

impl Parse for Control {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let min = input.parse()?;
        input.parse::<Token![,]>()?;
        let max = input.parse()?;
        input.parse::<Token![,]>()?;
        let step = input.parse()?;
        input.parse::<Token![,]>()?;
        let unit = input.parse()?;
        input.parse::<Token![,]>()?;
        let scale = input.parse()?;
        Ok(Control { min, max, step, unit, scale })
    }
}

fn param_of(attrs: &[Attribute]) -> syn::Result<ParamAttr> {
    let mut out = ParamAttr::default();
    for attr in attrs.iter().filter(|a| a.path().is_ident("param")) {
        attr.parse_nested_meta(|meta| {
            if meta.path.is_ident("range") {
                let content;
                syn::parenthesized!(content in meta.input);
                let min: Expr = content.parse()?;
                content.parse::<Token![,]>()?;
                let max: Expr = content.parse()?;
                out.range = Some((min, max));
            } else if meta.path.is_ident("unit") {
                out.unit = Some(meta.value()?.parse()?);
            } else if meta.path.is_ident("control") {
                let content;
                syn::parenthesized!(content in meta.input);
                out.control = Some(content.parse()?);
            } else {
                return Err(
                    meta.error("expected range(MIN, MAX), unit = \"…\" or control(MIN, MAX, STEP, \"UNIT\", SCALE)")
                );
            }
            Ok(())
        })?;
    }
    Ok(out)
}

/// The doc comment, its lines joined by spaces (a paragraph), trimmed.
fn doc_of(attrs: &[Attribute]) -> String {
    let lines: Vec<String> = attrs
        .iter()
        .filter(|a| a.path().is_ident("doc"))
        .filter_map(|a| match &a.meta {
            syn::Meta::NameValue(nv) => match &nv.value {
                Expr::Lit(syn::ExprLit { lit: syn::Lit::Str(s), .. }) => Some(s.value().trim().to_string()),
                _ => None,
            },
            _ => None,
        })
        .collect();
    lines.join(" ").trim().to_string()
}

/// Whether an expression reads `self` (a bound another field sets).
fn reads_self(tokens: Tokens) -> bool {
    tokens.into_iter().any(|t| match t {
        TokenTree::Ident(i) => i == "self",
        TokenTree::Group(g) => reads_self(g.stream()),
        _ => false,
    })
}

/// `RENDER_DELAY` for `render_delay`.
fn const_name(field: &syn::Ident) -> syn::Ident {
    format_ident!("{}", field.to_string().to_uppercase())
}

fn params(input: &DeriveInput) -> syn::Result<Tokens> {
    let name = &input.ident;
    let Data::Struct(data) = &input.data else {
        return Err(syn::Error::new_spanned(input, "#[derive(Params)] is for a struct of named fields"));
    };
    let Fields::Named(fields) = &data.fields else {
        return Err(syn::Error::new_spanned(input, "#[derive(Params)] is for a struct of named fields"));
    };
    let container = serde_of(&input.attrs)?;
    let mut expecting = format!("struct {name}");
    let (mut own_reader, mut field_consts) = (false, true);
    for attr in input.attrs.iter().filter(|a| a.path().is_ident("params")) {
        attr.parse_nested_meta(|meta| {
            if meta.path.is_ident("expecting") {
                expecting = meta.value()?.parse::<LitStr>()?.value();
            } else if meta.path.is_ident("own_reader") {
                own_reader = true;
            } else if meta.path.is_ident("no_field_consts") {
                field_consts = false;
            } else {
                return Err(meta.error("expected expecting = \"struct …\", own_reader or no_field_consts"));
            }
            Ok(())
        })?;
    }

    let (mut keys, mut consts, mut reads, mut checks, mut walks) = (vec![], vec![], vec![], vec![], vec![]);
    let mut check_fns = vec![];
    for field in &fields.named {
        let ident = field.ident.as_ref().expect("a named field");
        let ty = &field.ty;
        let serde = serde_of(&field.attrs)?;
        let attr = param_of(&field.attrs)?;
        let doc = doc_of(&field.attrs);
        if serde.flatten {
            // Its keys sit beside the group's own: walked at the same level, read by the group's own reader.
            walks.push(quote! { crate::param::Schema::walk(&self.#ident, prefix, visit); });
            continue;
        }
        let key = match serde.rename {
            Some(rename) => rename,
            None => renamed(&ident.to_string(), container.rename_all.as_deref(), ident.span())?,
        };
        let unit = attr.unit.as_ref().map_or_else(|| quote! { "" }, |u| quote! { #u });
        let range = match &attr.range {
            Some((min, max)) if !reads_self(quote! { #min #max }) => {
                quote! { ::core::option::Option::Some(&((#min) as f64, (#max) as f64)) }
            }
            _ => quote! { ::core::option::Option::None },
        };
        let control = match &attr.control {
            Some(Control { min, max, step, unit, scale }) => quote! {
                ::core::option::Option::Some(&crate::param::Control {
                    min: #min, max: #max, step: #step, unit: #unit, scale: #scale,
                })
            },
            None => quote! { ::core::option::Option::None },
        };
        let field_name = ident.to_string();
        let param = quote! {
            crate::param::Param {
                key: #key,
                field: #field_name,
                kind: <#ty as crate::param::Schema>::KIND,
                options: <#ty as crate::param::Schema>::OPTIONS,
                unit: #unit,
                range: #range,
                control: #control,
            }
        };
        let param = if field_consts {
            let konst = const_name(ident);
            let line = format!("`{key}`: its key, kind, unit, range and how the page shows it.");
            consts.push(quote! {
                #[doc = #line]
                pub const #konst: crate::param::Param = #param;
            });
            quote! { Self::#konst }
        } else {
            quote! { { const PARAM: crate::param::Param = #param; PARAM } }
        };
        if let Some((min, max)) = &attr.range {
            let check = format_ident!("check_{}", ident);
            let line = format!("Checks `{key}` against its range; a refusal names it.");
            check_fns.push(quote! {
                #[doc = #line]
                pub fn #check(&self) -> ::core::result::Result<(), crate::param::ParamError> {
                    crate::param::Ranged::check(&self.#ident, #key, (#min) as f64, (#max) as f64, #unit)
                }
            });
            checks.push(quote! {
                crate::param::Bound {
                    key: #key,
                    value: crate::param::Ranged::ranged(&self.#ident),
                    min: (#min) as f64,
                    max: (#max) as f64,
                    unit: #unit,
                },
            });
        }
        reads.push(quote! { #key => crate::tree::Read::read_into(&mut self.#ident, value)?, });
        // The docs are ~11 KB of text: the first-frame wasm builds (no feature `full`) list the schema without them.
        let doc = quote! { if cfg!(any(feature = "full", not(target_arch = "wasm32"))) { #doc } else { "" } };
        walks.push(quote! {
            if <#ty as crate::param::Schema>::KIND == crate::param::Kind::Group {
                crate::param::Schema::walk(&self.#ident, &crate::param::join(prefix, #key), visit);
            } else {
                crate::param::leaf(&#param, #doc, crate::param::Schema::value(&self.#ident), prefix, visit);
            }
        });
        keys.push(key);
    }
    let read = (!own_reader).then(|| {
        quote! {
            impl crate::tree::Read for #name {
                #[inline(never)]
                fn read_into(slot: &mut Self, tree: crate::tree::Tree) -> ::core::result::Result<(), crate::tree::TreeError> {
                    use crate::tree::Group as _;
                    *slot = <#name as ::core::default::Default>::default();
                    crate::tree::read::object(tree, Self::EXPECTING, Self::KEYS, &mut |key, value| slot.read_key(key, value))
                }
            }
        }
    });
    Ok(quote! {
        impl #name {
            #(#consts)*

            #(#check_fns)*

            /// Checks every field that has a range, in declaration order; a refusal names the field by its key.
            pub fn check_ranges(&self) -> ::core::result::Result<(), crate::param::ParamError> {
                crate::param::check_bounds(&[#(#checks)*])
            }
        }

        impl crate::tree::Group for #name {
            const KEYS: &'static [&'static str] = &[#(#keys),*];
            const EXPECTING: &'static str = #expecting;
            #[inline(never)]
            fn read_key(&mut self, key: &str, value: crate::tree::Tree) -> ::core::result::Result<bool, crate::tree::TreeError> {
                match key {
                    #(#reads)*
                    _ => return ::core::result::Result::Ok(false),
                }
                ::core::result::Result::Ok(true)
            }
        }

        #read

        impl crate::param::Schema for #name {
            const KIND: crate::param::Kind = crate::param::Kind::Group;
            fn walk(&self, prefix: &str, visit: &mut crate::param::Visit) {
                #(#walks)*
            }
        }
    })
}

fn choice(input: &DeriveInput) -> syn::Result<Tokens> {
    let name = &input.ident;
    let Data::Enum(data) = &input.data else {
        return Err(syn::Error::new_spanned(input, "#[derive(Choice)] is for an enum of unit variants"));
    };
    let container = serde_of(&input.attrs)?;
    let (mut names, mut variants) = (vec![], vec![]);
    for variant in &data.variants {
        if !matches!(variant.fields, Fields::Unit) {
            return Err(syn::Error::new_spanned(variant, "#[derive(Choice)] is for unit variants only"));
        }
        let serde = serde_of(&variant.attrs)?;
        let ident = &variant.ident;
        names.push(match serde.rename {
            Some(rename) => rename,
            None => renamed(&ident.to_string(), container.rename_all.as_deref(), ident.span())?,
        });
        variants.push(ident);
    }
    let expecting = format!("enum {name}");
    let count = variants.len();
    let line = format!("The name of a `{name}` as serde spells it.");
    Ok(quote! {
        impl #name {
            /// Every choice, in declaration order.
            pub const ALL: [#name; #count] = [#(#name::#variants),*];

            #[doc = #line]
            pub const fn name(self) -> &'static str {
                match self { #(#name::#variants => #names,)* }
            }
        }

        impl crate::tree::read::Names for #name {
            const NAMES: &'static [&'static str] = &[#(#names),*];
            const VALUES: &'static [Self] = &[#(#name::#variants),*];
        }

        impl crate::tree::Read for #name {
            #[inline(never)]
            fn read_into(slot: &mut Self, tree: crate::tree::Tree) -> ::core::result::Result<(), crate::tree::TreeError> {
                use crate::tree::read::Names as _;
                let index = crate::tree::read::name(tree, #expecting, Self::NAMES)?;
                *slot = Self::VALUES[index];
                ::core::result::Result::Ok(())
            }
        }

        impl crate::param::Schema for #name {
            const KIND: crate::param::Kind = crate::param::Kind::Choice;
            const OPTIONS: &'static [&'static str] = <#name as crate::tree::read::Names>::NAMES;
            fn value(&self) -> crate::param::Value {
                crate::param::Value::Name(match self { #(#name::#variants => #names,)* })
            }
        }
    })
}
