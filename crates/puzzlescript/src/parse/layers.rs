//! COLLISIONLAYERS: each line one layer, its names separated by spaces or
//! commas; properties stand for their objects, aggregates are refused, and
//! `background` must be alone in its layer.

use std::collections::HashMap;

use super::cursor::{self, Line};
use super::{Found, Parser};
use crate::ast::Layer;

#[derive(Debug, Default)]
pub(super) struct State {
    /// The names written on this layer's line so far.
    written: Vec<String>,
    /// `background` has been seen on this line.
    background: bool,
    /// For each object, the layers that hold it, in order.
    holding: HashMap<String, Vec<usize>>,
}

impl Parser<'_> {
    pub(super) fn layers_step(&mut self, line: &mut Line, sol: bool) {
        if sol {
            self.out.layers.push(Layer {
                objects: Vec::new(),
                line: self.line_no,
            });
            self.layers.written.clear();
            self.layers.background = false;
        }
        let column = line.here();
        let Some(token) = line.eat(cursor::name) else {
            let n = cursor::layer_separators(line.rest());
            if n == 0 {
                let c = line.peek().unwrap_or(char::REPLACEMENT_CHARACTER);
                self.error_per_half(c, column, |c| {
                    let shown = c.unwrap_or(char::REPLACEMENT_CHARACTER);
                    format!("error detected - unexpected character {shown}")
                });
                line.bump();
            } else {
                line.take(n);
            }
            return;
        };
        let name = token.word().to_string();
        let width = token.width();
        let shown = name.to_uppercase();
        if name == "background" {
            if self
                .out
                .layers
                .last()
                .is_some_and(|l| !l.objects.is_empty())
            {
                self.error(column, width, "Background must be in a layer by itself.");
            }
            self.layers.background = true;
        } else if self.layers.background {
            self.error(column, width, "Background must be in a layer by itself.");
        }
        let members = self.layer_members(&name, column, width);
        if self.thrown {
            return;
        }
        let Some(current) = self.out.layers.len().checked_sub(1) else {
            self.error(column, width, "no layers found.");
            return;
        };
        let elsewhere: Vec<usize> = members
            .iter()
            .flat_map(|m| self.layers.holding.get(m).into_iter().flatten())
            .copied()
            .filter(|&j| j != current)
            .collect();
        if !elsewhere.is_empty() {
            let listed: String = elsewhere.iter().map(|j| format!("#{}, ", j + 1)).collect();
            let count = self.out.layers.len();
            self.warning(
                column,
                width,
                format!("Object \"{shown}\" included in multiple collision layers ( layers {listed}#{count} ). You should fix this!"),
            );
        }
        if self.layers.written.contains(&name) {
            self.warning(
                column,
                width,
                format!("Object \"{shown}\" included explicitly multiple times in the same layer. Don't do that innit."),
            );
        }
        self.layers.written.push(name);
        for member in &members {
            let holding = self.layers.holding.entry(member.clone()).or_default();
            if holding.last() != Some(&current) {
                holding.push(current);
            }
        }
        if let Some(layer) = self.out.layers.last_mut() {
            layer.objects.extend(members);
        }
    }

    /// The objects `name` puts in a layer.
    fn layer_members(&mut self, name: &str, column: usize, width: usize) -> Vec<String> {
        self.expand(name, |parser, found, out| match found {
            Found::Object(n) => {
                out.push(n);
                Vec::new()
            }
            Found::Aggregate(a, _) => {
                parser.error(
                    column,
                    width,
                    format!(
                        "\"{a}\" is an aggregate (defined using \"and\"), and cannot be added to a single layer because its constituent objects must be able to coexist."
                    ),
                );
                Vec::new()
            }
            Found::Undeclared(_) => {
                // Upstream names the word written, whatever it stood for.
                let shown = name.to_uppercase();
                parser.error(
                    column,
                    width,
                    format!("Cannot add \"{shown}\" to a collision layer; it has not been declared."),
                );
                Vec::new()
            }
            Found::Property(own, items) => items.into_iter().filter(|m| *m != own).collect(),
            Found::Loop => Vec::new(),
        })
    }
}
