// Errands with Backbone: a collection kept in localStorage, one view per row, a footer view,
// and a router for the #/ filters. Every DOM event is declared in a view's `events` hash.
import Backbone from 'backbone';
import _ from 'underscore';
import $ from 'jquery';

const KEY = 'errands-backbone';

function newId() {
  return (Math.random().toString(36) + '00000000').slice(2, 10);
}

const Errand = Backbone.Model.extend({
  defaults: { text: '', done: false },
});

const Errands = Backbone.Collection.extend({
  model: Errand,
  initialize() {
    this.on('add remove change', this.persist);
  },
  persist() {
    localStorage.setItem(KEY, JSON.stringify(this.toJSON()));
  },
  restore() {
    let saved = [];
    try {
      saved = JSON.parse(localStorage.getItem(KEY)) || [];
    } catch (e) {
      saved = [];
    }
    this.reset(Array.isArray(saved) ? saved : []);
  },
  open() {
    return this.where({ done: false });
  },
});

const errands = new Errands();

const ErrandView = Backbone.View.extend({
  tagName: 'li',
  className: 'errand',
  template: _.template('<input type="checkbox" class="toggle" aria-label="Done"><span class="text"><%- text %></span><button class="remove" aria-label="Remove">\u00d7</button>'),
  events: {
    'change .toggle': 'toggle',
    'click .remove': 'destroy',
    'dblclick .text': 'startEdit',
    'keydown .edit': 'editKey',
    'blur .edit': 'commit',
  },
  initialize() {
    this.editing = false;
    this.$el.attr('data-id', this.model.id);
  },
  render() {
    this.$el.html(this.template(this.model.toJSON()));
    this.$el.toggleClass('done', this.model.get('done'));
    this.$('.toggle').prop('checked', this.model.get('done'));
    return this;
  },
  toggle(event) {
    this.model.set('done', event.currentTarget.checked);
  },
  destroy() {
    errands.remove(this.model);
  },
  startEdit() {
    this.editing = true;
    const $edit = $('<input class="edit">').val(this.model.get('text'));
    this.$('.text').replaceWith($edit);
    $edit.trigger('focus');
  },
  editKey(event) {
    if (event.key === 'Enter') this.commit();
    else if (event.key === 'Escape') this.cancel();
  },
  commit() {
    if (!this.editing) return;
    this.editing = false;
    const text = this.$('.edit').val().trim();
    if (!text) {
      errands.remove(this.model);
      return;
    }
    if (text === this.model.get('text')) this.render();
    else this.model.set('text', text);
  },
  cancel() {
    if (!this.editing) return;
    this.editing = false;
    this.render();
  },
});

const FooterView = Backbone.View.extend({
  tagName: 'footer',
  className: 'bar',
  template: _.template('<span class="count"><%- label %></span><a href="#/">All</a> <a href="#/open">Open</a> <a href="#/done">Done</a><% if (done) { %><button class="clear">Clear done</button><% } %>'),
  events: {
    'click .clear': 'clearDone',
  },
  render(filter) {
    const open = errands.open().length;
    this.$el.html(this.template({
      label: open + (open === 1 ? ' errand left' : ' errands left'),
      done: errands.length > open,
    }));
    this.$('a').eq({ all: 0, open: 1, done: 2 }[filter]).attr('class', 'selected');
    return this;
  },
  clearDone() {
    errands.remove(errands.where({ done: true }));
  },
});

const AppView = Backbone.View.extend({
  el: '#app',
  events: {
    'keydown .new-errand': 'addOnEnter',
  },
  initialize() {
    this.filter = 'all';
    this.$list = this.$('.errands');
    this.footer = new FooterView();
    this.listenTo(errands, 'add remove change reset', this.render);
  },
  addOnEnter(event) {
    if (event.key !== 'Enter') return;
    const $field = $(event.currentTarget);
    const text = $field.val().trim();
    $field.val('');
    if (text) errands.add({ id: newId(), text });
  },
  setFilter(filter) {
    this.filter = filter;
    this.render();
  },
  render() {
    _.invoke(this.rows || [], 'remove');
    const shown = errands.filter((model) => {
      if (this.filter === 'open') return !model.get('done');
      if (this.filter === 'done') return model.get('done');
      return true;
    });
    this.rows = shown.map((model) => new ErrandView({ model }));
    this.$list.append(this.rows.map((view) => view.render().el));
    if (errands.length) this.$el.append(this.footer.render(this.filter).el);
    else this.footer.$el.detach();
    return this;
  },
});

const app = new AppView();

const Filters = Backbone.Router.extend({
  // Backbone strips the leading "/" of "#/open", so the fragments are "", "open" and "done".
  routes: {
    open: 'open',
    done: 'done',
    '*other': 'all',
  },
  all() { app.setFilter('all'); },
  open() { app.setFilter('open'); },
  done() { app.setFilter('done'); },
});

new Filters();
errands.restore();
Backbone.history.start();
