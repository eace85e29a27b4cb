// Shop: the page half of the checkout lab. Every app event is posted to the server through
// labkit's one promise chain (lab.js), so the server logs them in the order they happened;
// payments run on the same chain. The signed-in account is the account cookie: the switcher
// changes it, and so does another tab (the account-switched fault plays that tab's message).
'use strict';

(() => {
  const { $, enqueue, post, event: log } = lab;
  const state = JSON.parse($('initial').textContent);
  const fault = JSON.parse($('fault').textContent);
  const product = document.querySelector('[data-product-id]').dataset.productId;
  const account = $('account');
  const switcher = $('switch');
  const price = $('price');
  const total = $('total');
  const cartLine = $('cart-line');
  const pay = $('pay');
  const notice = $('notice');
  const alertBox = $('alert');
  let cart = '';

  // signIn changes who is signed in, here and for every request from now on.
  function signIn(name) {
    document.cookie = `account=${encodeURIComponent(name)}; path=/; SameSite=Lax`;
    account.textContent = name;
    switcher.value = name;
    log('account_switched', { account: name });
  }

  function quote(p) {
    price.textContent = p;
    if (cart) total.textContent = p;
    log('price_changed', { product, price: p });
  }

  switcher.value = state.account;
  switcher.addEventListener('change', () => signIn(switcher.value));

  $('add').addEventListener('click', () => {
    cart = product;
    total.textContent = price.textContent;
    cartLine.textContent = `1 × ${document.getElementById('product-name').textContent}`;
    pay.disabled = false;
    log('cart_added', { product, price: price.textContent });
    if (fault.mode === 'account-switched') signIn(fault.other_account); // another tab's message
  });

  let reached = false;
  pay.addEventListener('mouseenter', () => {
    if (reached) return;
    reached = true;
    if (fault.mode === 'price-changed') quote(fault.changed_price);
    if (fault.mode === 'banner') showPromo();
  });

  pay.addEventListener('click', () => {
    if (!cart) return;
    pay.disabled = true;
    const amount = total.textContent;
    enqueue(async () => {
      try {
        const paid = await post('/api/pay', { product: cart, amount });
        cart = '';
        total.textContent = '0.00';
        cartLine.textContent = 'The cart is empty.';
        const text = `Order #${paid.order} placed: ${paid.amount} by ${paid.account}`;
        notice.textContent = text;
        notice.hidden = false;
        await post('/api/events', { type: 'notice_shown', data: { order: String(paid.order), text } });
      } catch (err) {
        alertBox.textContent = `Payment failed: ${err.message}`;
        alertBox.hidden = false;
        pay.disabled = false;
      }
    });
  });

  function showPromo() {
    const promo = $('promo');
    promo.hidden = false;
    let left = 60;
    setInterval(() => { $('countdown').textContent = String(Math.max(0, --left)); }, 1000);
  }

  const clock = $('clock');
  const tick = () => { clock.textContent = new Date().toISOString().slice(11, 19); };
  tick();
  setInterval(tick, 1000);
})();
